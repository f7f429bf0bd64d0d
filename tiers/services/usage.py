"""Usage signals on shortterm memories (seed 001): what agents report about a memory
(``access``, ``confirm``, ``correct``, ``contradict``, ``mark_important``,
``user_mention``; consolidation adds ``reinforce`` when a section is merged into it).

Each signal is a ``MemoryEvent`` row and moves the memory's ``MemoryUsage`` summary, in
one transaction: the summary is what promotion scoring reads, the rows are the record.
"""

from django.db import transaction
from django.utils import timezone

from memoryhub.errors import DomainError, NotFoundError
from memoryhub.models import Worker
from tiers.models import MemoryEvent, MemoryUsage, ShorttermChunk, ShorttermMemory, UsageKind

AGENT_KINDS = tuple(kind for kind in UsageKind.values if kind != UsageKind.REINFORCE)
MAX_SESSION_CHARS = 200
MAX_DETAIL_CHARS = 2000


def _text(field: str, value, limit: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise DomainError(f"{field} must be a string", fields={field: "must be a string"})
    if len(value) > limit:
        raise DomainError(
            f"{field} is longer than {limit} characters", fields={field: f"at most {limit}"}
        )
    return value.strip()


def _apply(usage: MemoryUsage, kind: str, session_id: str, at, importance: float | None) -> None:
    """Move the summary by one event."""
    if session_id and session_id not in usage.sessions:
        usage.sessions = (usage.sessions + [session_id])[-MemoryUsage.MAX_SESSIONS :]
        usage.session_count += 1
    if kind == UsageKind.ACCESS:
        usage.access_count += 1
        stamp = at.isoformat()
        usage.access_times = (usage.access_times + [stamp])[-MemoryUsage.MAX_TIMES :]
        usage.first_accessed_at = usage.first_accessed_at or at
        usage.last_accessed_at = max(filter(None, [usage.last_accessed_at, at]))
    elif kind == UsageKind.CONFIRM:
        usage.confirmations += 1
    elif kind == UsageKind.CORRECT:
        usage.corrections += 1
    elif kind == UsageKind.CONTRADICT:
        usage.contradictions += 1
        usage.last_contradiction_at = max(filter(None, [usage.last_contradiction_at, at]))
    elif kind == UsageKind.MARK_IMPORTANT:
        usage.importance_marks += 1
        usage.importance = max(usage.importance, 9.0 if importance is None else importance)
    elif kind == UsageKind.USER_MENTION:
        usage.user_mentions += 1
    elif kind == UsageKind.REINFORCE:
        usage.reinforcements += 1


def _locked_usages(worker_id: int, memory_ids: list[int]) -> dict[int, MemoryUsage]:
    """The memories' summaries, created when missing, locked (in id order: no deadlock
    between two writers of the same memories)."""
    MemoryUsage.objects.bulk_create(
        [MemoryUsage(memory_id=mid, worker_id=worker_id) for mid in sorted(memory_ids)],
        ignore_conflicts=True,
    )
    return {
        usage.memory_id: usage
        for usage in MemoryUsage.objects.select_for_update()
        .filter(memory_id__in=memory_ids)
        .order_by("memory_id")
    }


def usage_record(
    *,
    worker: Worker,
    memory_id,
    kind,
    session_id=None,
    chunk_id=None,
    actor: str = "",
    detail=None,
    importance=None,
    at=None,
    allow_internal: bool = False,
) -> MemoryEvent:
    """Record one signal on one of the worker's shortterm memories (or one of its chunks).
    ``importance`` (0-10) goes with ``mark_important``; ``at`` defaults to now."""
    kinds = UsageKind.values if allow_internal else AGENT_KINDS
    if kind not in kinds:
        raise DomainError(
            f"kind must be one of {', '.join(kinds)}",
            fields={"kind": f"not one of {', '.join(kinds)}"},
        )
    session_id = _text("session_id", session_id, MAX_SESSION_CHARS)
    detail = _text("detail", detail, MAX_DETAIL_CHARS)
    if importance is not None:
        if kind != UsageKind.MARK_IMPORTANT:
            raise DomainError(
                "importance goes with kind mark_important",
                fields={"importance": "only with mark_important"},
            )
        if (
            not isinstance(importance, (int, float))
            or isinstance(importance, bool)
            or not 0 <= importance <= 10
        ):
            raise DomainError(
                "importance must be a number from 0 to 10", fields={"importance": "must be 0 to 10"}
            )
        importance = float(importance)
    if not isinstance(memory_id, int) or isinstance(memory_id, bool):
        raise DomainError(
            "memory_id must be an integer", fields={"memory_id": "must be an integer"}
        )
    if chunk_id is not None and (not isinstance(chunk_id, int) or isinstance(chunk_id, bool)):
        raise DomainError("chunk_id must be an integer", fields={"chunk_id": "must be an integer"})
    at = at or timezone.now()
    with transaction.atomic():
        if not ShorttermMemory.objects.filter(worker=worker, pk=memory_id).exists():
            raise NotFoundError(
                f"shortterm memory {memory_id} not found", fields={"memory_id": "not found"}
            )
        if (
            chunk_id is not None
            and not ShorttermChunk.objects.filter(memory_id=memory_id, pk=chunk_id).exists()
        ):
            raise NotFoundError(
                f"chunk {chunk_id} is not in memory {memory_id}", fields={"chunk_id": "not found"}
            )
        usage = _locked_usages(worker.pk, [memory_id])[memory_id]
        _apply(usage, kind, session_id, at, importance)
        usage.save()
        return MemoryEvent.objects.create(
            worker=worker,
            memory_id=memory_id,
            chunk_id=chunk_id,
            kind=kind,
            session_id=session_id,
            actor=actor[:200],
            detail=detail,
            created_at=at,
        )


def usage_record_accesses(
    *, worker_id: int, hits: list[tuple[int, int | None]], session_id: str = "", actor: str = ""
) -> int:
    """``access`` on the memories of search hits ``[(memory_id, chunk_id)]``: one access
    per memory (on its best chunk, the first listed); a memory deleted meanwhile is
    skipped. Returns how many accesses were recorded."""
    if not hits:
        return 0
    session_id = (session_id or "")[:MAX_SESSION_CHARS]
    best_chunk: dict[int, int | None] = {}
    for memory_id, chunk_id in hits:
        best_chunk.setdefault(memory_id, chunk_id)
    memory_ids = sorted(best_chunk)
    at = timezone.now()
    with transaction.atomic():
        present = set(
            ShorttermMemory.objects.filter(worker_id=worker_id, pk__in=memory_ids).values_list(
                "pk", flat=True
            )
        )
        if not present:
            return 0
        usages = _locked_usages(worker_id, sorted(present))
        for memory_id in present:
            _apply(usages[memory_id], UsageKind.ACCESS, session_id, at, None)
        MemoryUsage.objects.bulk_update(
            usages.values(),
            [
                "access_count",
                "access_times",
                "first_accessed_at",
                "last_accessed_at",
                "sessions",
                "session_count",
            ],
        )
        events = [
            MemoryEvent(
                worker_id=worker_id,
                memory_id=memory_id,
                chunk_id=chunk_id,
                kind=UsageKind.ACCESS,
                session_id=session_id,
                actor=actor[:200],
                detail="search hit",
                created_at=at,
            )
            for memory_id, chunk_id in best_chunk.items()
            if memory_id in present
        ]
        MemoryEvent.objects.bulk_create(events)
    return len(events)
