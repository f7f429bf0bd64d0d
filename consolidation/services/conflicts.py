"""Recording merge conflicts (found by consolidation) and applying a human's (or an
agent's) decision to the tiers. The records and their pages belong to ``review``; this is
where a decision changes memory. Every resolution is one transaction and refuses a
conflict that is no longer pending."""

from django.db import transaction
from django.utils import timezone

from memoryhub.errors import ConflictError, DomainError
from review.models import ConflictResolution, MergeConflict
from tiers.models import ActiveMemory, ShorttermChunk
from tiers.services.active import active_section_reset_count
from tiers.services.shortterm import shortterm_chunks_update, shortterm_memory_create

Decision = ConflictResolution.Decision


@transaction.atomic
def conflict_create(
    *,
    worker,
    active_memory: ActiveMemory | None,
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


def _primary_chunk(conflict: MergeConflict) -> ShorttermChunk:
    chunk_id = conflict.conflicting_chunks[0]["chunk_id"]
    chunk = (
        ShorttermChunk.objects.filter(pk=chunk_id, worker_id=conflict.worker_id)
        .select_related("memory")
        .first()
    )
    if chunk is None:
        raise ConflictError(
            f"chunk {chunk_id} of this conflict no longer exists; "
            "keep existing, store separately or dismiss",
            code="chunk_gone",
        )
    return chunk


def _reset_section_count(conflict: MergeConflict) -> None:
    """The section's content is now handled: its update count restarts, unless the agent
    changed the section again since the conflict was found."""
    if conflict.active_memory_id is not None:
        active_section_reset_count(
            memory_id=conflict.active_memory_id,
            section_id=conflict.section_id,
            only_if_content=conflict.section_content,
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
    """Apply ``decision``: accept_incoming (the section replaces the conflicting chunk),
    keep_existing, merge_edited (``edited_text`` replaces it), separate_memory (the section
    becomes a new shortterm memory) or dismiss."""
    if decision not in Decision.values:
        raise DomainError(
            f"decision must be one of {', '.join(Decision.values)}", fields={"decision": "unknown"}
        )
    if decision == Decision.MERGE_EDITED and (
        not isinstance(edited_text, str) or not edited_text.strip()
    ):
        raise DomainError(
            "merge_edited needs the edited text",
            fields={"edited_text": "required for merge_edited"},
        )
    if not isinstance(note, str):
        raise DomainError("note must be a string", fields={"note": "must be a string"})
    with transaction.atomic():
        locked = MergeConflict.objects.select_for_update().get(pk=conflict.pk)
        if locked.status != MergeConflict.Status.PENDING:
            raise ConflictError(
                f"conflict {locked.pk} is already {locked.status}", code="already_resolved"
            )
        before, after = {}, {}
        if decision in (Decision.ACCEPT_INCOMING, Decision.MERGE_EDITED):
            chunk = _primary_chunk(locked)
            new_content = (
                locked.section_content if decision == Decision.ACCEPT_INCOMING else edited_text
            )
            before = {"chunk_id": chunk.pk, "content": chunk.content}
            shortterm_chunks_update(
                memory=chunk.memory, updates=[{"chunk_id": chunk.pk, "new_content": new_content}]
            )
            after = {"chunk_id": chunk.pk, "content": new_content}
        elif decision == Decision.SEPARATE_MEMORY:
            title = locked.section_name or locked.section_id
            if locked.active_memory is not None:
                title = f"{locked.active_memory.title} — {title}"
            memory = shortterm_memory_create(
                worker=locked.worker,
                title=title[:500],
                content=locked.section_content,
                metadata={"from_conflict": locked.pk},
            )
            after = {"shortterm_memory_id": memory.pk}
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
        if decision != Decision.DISMISS:
            _reset_section_count(locked)
    return locked
