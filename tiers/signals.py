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

import logging

from django.db import transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)

active_sections_updated = Signal()
shortterm_chunks_written = Signal()


def announce_after_commit(signal: Signal, *, sender, after: str, **kwargs) -> None:
    """Send ``signal`` once the caller's transaction commits. A receiver that fails is
    logged (``after``: what was written, for the message) and never undoes the write; the
    scheduled sweeps catch up with what it would have done."""

    def announce():
        for receiver, result in signal.send_robust(sender=sender, **kwargs):
            if isinstance(result, Exception):
                logger.error(
                    "after %s, %s failed: %r",
                    after,
                    getattr(receiver, "__qualname__", receiver),
                    result,
                    exc_info=result,
                )

    transaction.on_commit(announce)
