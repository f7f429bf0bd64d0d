"""The review queue's records: a conflict handed over by consolidation, and a reviewer's
(or an agent's) decision on it. The decision's effect on memory is consolidation's
(``consolidation.services.decisions``); here it is recorded with who, when and what the
shortterm tier held before and after. Every resolution is one transaction and refuses a
conflict that is no longer pending. A decision can be undone (``conflict_undo``) while
nothing newer depends on it: its conflict goes back to pending and the decision moves to
``UndoneResolution``."""

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from consolidation.models import Decision
from consolidation.services.decisions import (
    decision_apply,
    decision_check,
    decision_undo,
    decision_undo_refusal,
)
from memoryhub.errors import ConflictError, DomainError
from memoryhub.services.audit import audit_record
from review.models import ConflictResolution, MergeConflict, UndoneResolution
from tiers.models import ShorttermChunk


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

    def pending_memory_ids(self, *, memory_ids: list[int]) -> set[int]:
        if not memory_ids:
            return set()
        return set(
            MergeConflict.objects.filter(
                status=MergeConflict.Status.PENDING, shortterm_memory_id__in=memory_ids
            ).values_list("shortterm_memory_id", flat=True)
        )


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
        resolution = ConflictResolution.objects.create(
            conflict=locked,
            decision=decision,
            resolved_by=user if getattr(user, "pk", None) else None,
            resolved_by_token=token,
            note=note,
            before=before,
            after=after,
        )
        audit_record(
            action="conflict.resolve",
            target=f"conflict:{locked.pk}",
            user=user,
            token=token,
            worker=locked.worker,
            detail={"decision": decision, "resolution": resolution.pk, "note": note},
        )
    return locked


def _later_conflict(resolution: ConflictResolution) -> MergeConflict | None:
    """A conflict filed after ``resolution`` about what the decision wrote: undoing it
    would pull the text that conflict was found against from under it."""
    after = resolution.after or {}
    if resolution.decision in (Decision.ACCEPT_INCOMING, Decision.MERGE_EDITED):
        chunk_ids, memory_id = [after.get("chunk_id")], None
    elif resolution.decision == Decision.SEPARATE_MEMORY:
        memory_id = after.get("shortterm_memory_id")
        chunk_ids = list(
            ShorttermChunk.objects.filter(memory_id=memory_id).values_list("pk", flat=True)
        )
    else:
        return None
    about = Q(shortterm_memory_id=memory_id) if memory_id else Q()
    for chunk_id in chunk_ids:
        about |= Q(conflicting_chunks__contains=[{"chunk_id": chunk_id}])
    if not about:
        return None
    return (
        MergeConflict.objects.filter(about, created_at__gt=resolution.resolved_at)
        .exclude(pk=resolution.conflict_id)
        .order_by("created_at", "pk")
        .first()
    )


def conflict_undo_refusal(*, resolution: ConflictResolution) -> str | None:
    """Why ``resolution`` cannot be undone now, or None when it can (reads only; the
    decision log greys out the undo button with this)."""
    later = _later_conflict(resolution)
    if later is not None:
        return f"conflict #{later.pk}, filed after this decision, is about what it wrote"
    return decision_undo_refusal(
        decision=resolution.decision,
        worker=resolution.conflict.worker,
        before=resolution.before,
        after=resolution.after,
        decided_at=resolution.resolved_at,
    )


def conflict_undo(*, resolution: ConflictResolution, user=None) -> MergeConflict:
    """Undo a reviewer's decision, in one transaction: take its effect on memory back
    (``consolidation.services.decisions.decision_undo``: the chunk gets its earlier text
    back, or the memory stored separately is deleted), put the conflict back to pending
    and keep the decision, with who undid it and when, as an ``UndoneResolution``.

    Refused with a ConflictError, changing nothing, once something newer depends on the
    decision (the chunk or the stored memory changed since, or a later conflict is about
    them) and when the decision was undone already. The section's update count is not
    restored (see ``decision_undo``)."""
    with transaction.atomic():
        conflict = MergeConflict.objects.select_for_update().get(pk=resolution.conflict_id)
        current = ConflictResolution.objects.filter(pk=resolution.pk).first()
        if current is None:
            undone = (
                UndoneResolution.objects.select_related("undone_by")
                .filter(resolution_id=resolution.pk)
                .first()
            )
            by = f" by {undone.undone_by}" if undone and undone.undone_by else ""
            at = f" at {undone.undone_at:%Y-%m-%d %H:%M}" if undone else ""
            raise ConflictError(
                f"decision {resolution.pk} was already undone{by}{at}", code="already_undone"
            )
        later = _later_conflict(current)
        if later is not None:
            raise ConflictError(
                f"cannot undo: conflict #{later.pk}, filed after this decision, is about "
                "what it wrote; decide that one first",
                code="undo_refused",
            )
        decision_undo(
            decision=current.decision,
            worker=conflict.worker,
            before=current.before,
            after=current.after,
            decided_at=current.resolved_at,
        )
        UndoneResolution.objects.create(
            resolution_id=current.pk,
            conflict=conflict,
            decision=current.decision,
            resolved_by_id=current.resolved_by_id,
            resolved_by_token_id=current.resolved_by_token_id,
            resolved_at=current.resolved_at,
            note=current.note,
            before=current.before,
            after=current.after,
            undone_by=user if getattr(user, "pk", None) else None,
        )
        audit_record(
            action="conflict.undo",
            target=f"conflict:{conflict.pk}",
            user=user,
            worker=conflict.worker,
            detail={"decision": current.decision, "resolution": current.pk},
        )
        current.delete()
        conflict.status = MergeConflict.Status.PENDING
        conflict.resolved_at = None
        conflict.save(update_fields=["status", "resolved_at"])
    return conflict
