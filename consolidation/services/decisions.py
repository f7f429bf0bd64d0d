"""What a reviewer's decision on a conflict does to memory. The review queue keeps the
conflict and its resolution (``review.services.conflicts``); this applies the decision to
the tiers, in the caller's transaction, and says what the shortterm tier held before and
after.

- ``accept_incoming``: the section's text replaces the conflicting chunk;
- ``merge_edited``: the reviewer's edited text replaces it;
- ``separate_memory``: the section becomes a new shortterm memory;
- ``keep_existing`` and ``dismiss``: memory stays as it is.

Every decision but ``dismiss`` restarts the section's update count (the section is
handled), unless the agent changed the section again since the conflict was found.

``decision_undo`` takes a decision's effect back while nothing newer depends on it.
"""

from consolidation.models import Decision
from memoryhub.errors import ConflictError, DomainError
from tiers.models import ShorttermChunk, ShorttermMemory, UsageKind
from tiers.services.active import active_section_reset_count
from tiers.services.shortterm import (
    shortterm_chunks_update,
    shortterm_memory_create,
    shortterm_memory_delete,
)
from tiers.services.usage import usage_record


def decision_check(*, decision, edited_text=None) -> None:
    """A valid decision, with the edited text ``merge_edited`` needs."""
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


def _primary_chunk(*, worker_id: int, chunk_id: int) -> ShorttermChunk:
    chunk = (
        ShorttermChunk.objects.filter(pk=chunk_id, worker_id=worker_id)
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


def _reset_section_count(*, active_memory_id: int | None, section_id: str, content: str) -> None:
    if active_memory_id is not None:
        active_section_reset_count(
            memory_id=active_memory_id, section_id=section_id, only_if_content=content
        )


def _signal(worker, chunk: ShorttermChunk, kind: str, detail: str) -> None:
    """A reviewer's decision is a usage signal on the memory it is about (seed 001)."""
    usage_record(
        worker=worker,
        memory_id=chunk.memory_id,
        chunk_id=chunk.pk,
        kind=kind,
        actor="review",
        detail=detail,
    )


def decision_apply(
    *,
    decision: str,
    worker,
    conflict_id: int,
    chunk_id: int,
    active_memory=None,
    section_id: str,
    section_name: str,
    section_content: str,
    edited_text: str | None = None,
) -> tuple[dict, dict]:
    """Apply ``decision`` on the conflict of ``section_content`` with chunk ``chunk_id``
    (the most similar of the conflicting chunks), in the caller's transaction. Returns
    ``(before, after)``: what the shortterm tier held, and holds now."""
    decision_check(decision=decision, edited_text=edited_text)
    before, after = {}, {}
    if decision in (Decision.ACCEPT_INCOMING, Decision.MERGE_EDITED):
        chunk = _primary_chunk(worker_id=worker.pk, chunk_id=chunk_id)
        new_content = section_content if decision == Decision.ACCEPT_INCOMING else edited_text
        before = {"chunk_id": chunk.pk, "content": chunk.content}
        shortterm_chunks_update(
            memory=chunk.memory, updates=[{"chunk_id": chunk.pk, "new_content": new_content}]
        )
        after = {"chunk_id": chunk.pk, "content": new_content}
        # A reviewer corrected the memory: seed 001's strongest promotion signal.
        _signal(worker, chunk, UsageKind.CORRECT, f"conflict {conflict_id}: {decision}")
    elif decision == Decision.KEEP_EXISTING:  # the reviewer confirmed the stored text
        chunk = _primary_chunk(worker_id=worker.pk, chunk_id=chunk_id)
        _signal(worker, chunk, UsageKind.CONFIRM, f"conflict {conflict_id}: {decision}")
    elif decision == Decision.SEPARATE_MEMORY:
        title = section_name or section_id
        if active_memory is not None:
            title = f"{active_memory.title} — {title}"
        memory = shortterm_memory_create(
            worker=worker,
            title=title[:500],
            content=section_content,
            metadata={"from_conflict": conflict_id},
        )
        after = {"shortterm_memory_id": memory.pk}
    if decision != Decision.DISMISS:
        _reset_section_count(
            active_memory_id=getattr(active_memory, "pk", None),
            section_id=section_id,
            content=section_content,
        )
    return before, after


def decision_undo_refusal(
    *, decision: str, worker, before: dict, after: dict, decided_at
) -> str | None:
    """Why the effect of ``decision`` (recorded as ``before``/``after`` at ``decided_at``)
    can no longer be taken back, or None when it can. Reads only."""
    if decision in (Decision.ACCEPT_INCOMING, Decision.MERGE_EDITED):
        chunk = ShorttermChunk.objects.filter(pk=after.get("chunk_id"), worker_id=worker.pk).first()
        if chunk is None:
            return "the chunk was deleted after this decision"
        if chunk.content != after.get("content"):
            return "the chunk changed after this decision"
    elif decision == Decision.SEPARATE_MEMORY:
        memory = ShorttermMemory.objects.filter(
            pk=after.get("shortterm_memory_id"), worker_id=worker.pk
        ).first()
        if memory is None:
            return "the memory this decision stored was deleted since"
        if (
            memory.last_updated > decided_at
            or memory.chunks.filter(updated_at__gt=decided_at).exists()
        ):
            return "the memory this decision stored changed after it"
    return None


def decision_undo(*, decision: str, worker, before: dict, after: dict, decided_at) -> dict:
    """Take back what ``decision`` did to memory, in the caller's transaction, while
    nothing newer depends on it; otherwise raise a ConflictError saying why and change
    nothing. Returns what the shortterm tier holds now (as ``decision_apply``'s ``after``).

    - ``accept_incoming``, ``merge_edited``: the chunk must still hold exactly the
      decision's ``after`` text; it goes back to the ``before`` text (re-embedded,
      re-indexed, its memory's graph re-read);
    - ``separate_memory``: the memory it stored must be unchanged since ``decided_at``
      (no chunk added or edited, no title, summary or metadata change); it is deleted;
    - ``keep_existing``, ``dismiss``: memory was not touched; nothing to take back.

    The section's update count is not restored. Finding the conflict had already set it
    to 0, and the decision's own reset only repeated that; with the conflict back in the
    review queue, a count above the threshold would make the next sweep consolidate the
    section again and file the same conflict twice."""
    if decision not in Decision.values:
        raise DomainError(
            f"decision must be one of {', '.join(Decision.values)}", fields={"decision": "unknown"}
        )
    # Lock what the undo rewrites (memory, then chunk: the order the shortterm writes
    # take), so nothing changes it between the check and the write.
    if decision in (Decision.ACCEPT_INCOMING, Decision.MERGE_EDITED):
        chunk = ShorttermChunk.objects.filter(pk=after.get("chunk_id")).first()
        if chunk is not None:
            ShorttermMemory.objects.select_for_update().filter(pk=chunk.memory_id).first()
            ShorttermChunk.objects.select_for_update().filter(pk=chunk.pk).first()
    elif decision == Decision.SEPARATE_MEMORY:
        ShorttermMemory.objects.select_for_update().filter(
            pk=after.get("shortterm_memory_id")
        ).first()
    refusal = decision_undo_refusal(
        decision=decision, worker=worker, before=before, after=after, decided_at=decided_at
    )
    if refusal:
        raise ConflictError(f"cannot undo: {refusal}", code="undo_refused")
    if decision in (Decision.ACCEPT_INCOMING, Decision.MERGE_EDITED):
        chunk = _primary_chunk(worker_id=worker.pk, chunk_id=after["chunk_id"])
        shortterm_chunks_update(
            memory=chunk.memory,
            updates=[{"chunk_id": chunk.pk, "new_content": before["content"]}],
        )
        return {"chunk_id": chunk.pk, "content": before["content"]}
    if decision == Decision.SEPARATE_MEMORY:
        memory = ShorttermMemory.objects.get(pk=after["shortterm_memory_id"])
        shortterm_memory_delete(memory=memory)
        return {"deleted_shortterm_memory_id": memory.pk}
    return {}
