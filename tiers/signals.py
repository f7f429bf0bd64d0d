"""What the tiers announce to the layers above them, which the tiers never import.

``active_sections_updated`` is sent once an update of an active memory's sections has
committed (``worker_id``, ``memory_id``, ``section_ids``: the sections written):
consolidation listens to queue a sweep when a worker's working memory crosses its
capacity, and to read the written sections for their migration. Receivers run after the
commit; one that fails is logged and never undoes the update.
"""

from django.dispatch import Signal

active_sections_updated = Signal()
