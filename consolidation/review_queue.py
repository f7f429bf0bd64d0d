"""Consolidation's port to the human review queue.

When consolidation finds that a section contradicts stored memory, it hands the case to
the review queue, in the transaction that records the section's outcome, and keeps the id
the queue gives it. The queue's records and pages live in ``review``, one layer above, so
consolidation does not import them: the review app plugs its queue in when Django starts
(``ReviewConfig.ready``). Reviewers' decisions come back down through
``consolidation.services.decisions``.
"""

from typing import Protocol


class ReviewQueue(Protocol):
    def submit(
        self,
        *,
        worker,
        active_memory,
        section_id: str,
        section_name: str,
        section_content: str,
        shortterm_memory_id: int | None,
        conflicting_chunks: list[dict],
        reasons: list[dict],
        entity_differences: dict,
        relationship_differences: dict,
    ) -> int:
        """Record a conflict for a reviewer, in the caller's transaction; its id."""

    def pending_memory_ids(self, *, memory_ids: list[int]) -> set[int]:
        """Which of these shortterm memories a pending conflict is about (promotion and
        retention leave them alone until a reviewer decides)."""


class NoReviewQueue:
    def submit(self, **conflict) -> int:
        raise RuntimeError("no review queue is installed: add the review app to INSTALLED_APPS")

    def pending_memory_ids(self, *, memory_ids: list[int]) -> set[int]:
        return set()


_plugged: ReviewQueue = NoReviewQueue()


def plug_review_queue(queue: ReviewQueue) -> None:
    global _plugged
    _plugged = queue


def review_queue() -> ReviewQueue:
    return _plugged
