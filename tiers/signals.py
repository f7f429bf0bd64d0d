"""What the tiers announce to the layers above them, which the tiers never import.

``active_sections_updated`` is sent once an update of an active memory's sections has
committed (``worker_id``, ``memory_id``, ``section_ids``: the sections written):
consolidation listens to queue a sweep when a worker's working memory crosses its
capacity, and to read the written sections for their migration. Receivers run after the
commit; one that fails is logged and never undoes the update.

``shortterm_chunks_written`` is sent once shortterm chunks were written or rewritten
(``worker_id``, ``chunk_ids``) that were stored without their parse: consolidation reads
them in the background, so that a migration judging them does not parse them then.
"""

from django.dispatch import Signal

active_sections_updated = Signal()
shortterm_chunks_written = Signal()
