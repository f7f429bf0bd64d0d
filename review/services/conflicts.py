"""The review queue's records: a conflict handed over by consolidation, and a reviewer's
(or an agent's) decision on it. The decision's effect on memory is consolidation's
(``consolidation.services.decisions``); here it is recorded with who, when and what the
shortterm tier held before and after. Every resolution is one transaction and refuses a
conflict that is no longer pending."""

from django.db import transaction
from django.utils import timezone

from consolidation.models import Decision
from consolidation.services.decisions import decision_apply, decision_check
from memoryhub.errors import ConflictError, DomainError
from review.models import ConflictResolution, MergeConflict


@transaction.atomic
def conflict_create(
    *,
    worker,
    active_memory,
    section_id: str,
    section_name: str,
    section_content: str,
    shortterm_memory=None,
    shortterm_memory_id=None,
    conflicting_chunks: list[dict],
    reasons: list[dict],
    entity_differences: dict | None = None,
    relationship_differences: dict | None = None,
) -> MergeConflict:
    if not conflicting_chunks:
        raise DomainError(
            "a conflict needs at least one conflicting chunk",
            fields={"conflicting_chunks": "empty"},
        )
    conflict = MergeConflict(
        worker=worker,
        active_memory=active_memory,
        section_id=section_id,
        section_name=section_name,
        section_content=section_content,
        shortterm_memory_id=shortterm_memory.pk if shortterm_memory else shortterm_memory_id,
        conflicting_chunks=conflicting_chunks,
        reasons=reasons,
        entity_differences=entity_differences or {},
        relationship_differences=relationship_differences or {},
    )
    conflict.full_clean()
    conflict.save()
    return conflict


class MergeConflictQueue:
    """The review queue consolidation hands its conflicts to (``consolidation.review_queue``)."""

    def submit(self, **conflict) -> int:
        return conflict_create(**conflict).pk


def conflict_resolve(
    *,
    conflict: MergeConflict,
    decision: str,
    user=None,
    token=None,
    edited_text: str | None = None,
    note: str = "",
) -> MergeConflict:
    """Resolve a pending conflict with ``decision`` (``consolidation.services.decisions``:
    accept_incoming, keep_existing, merge_edited with ``edited_text``, separate_memory or
    dismiss) and record it."""
    decision_check(decision=decision, edited_text=edited_text)
    if not isinstance(note, str):
        raise DomainError("note must be a string", fields={"note": "must be a string"})
    with transaction.atomic():
        locked = MergeConflict.objects.select_for_update().get(pk=conflict.pk)
        if locked.status != MergeConflict.Status.PENDING:
            raise ConflictError(
                f"conflict {locked.pk} is already {locked.status}", code="already_resolved"
            )
        before, after = decision_apply(
            decision=decision,
            worker=locked.worker,
            conflict_id=locked.pk,
            chunk_id=locked.conflicting_chunks[0]["chunk_id"],
            active_memory=locked.active_memory,
            section_id=locked.section_id,
            section_name=locked.section_name,
            section_content=locked.section_content,
            edited_text=edited_text,
        )
        locked.status = (
            MergeConflict.Status.DISMISSED
            if decision == Decision.DISMISS
            else MergeConflict.Status.RESOLVED
        )
        locked.resolved_at = timezone.now()
        locked.save(update_fields=["status", "resolved_at"])
        ConflictResolution.objects.create(
            conflict=locked,
            decision=decision,
            resolved_by=user if getattr(user, "pk", None) else None,
            resolved_by_token=token,
            note=note,
            before=before,
            after=after,
        )
    return locked
