"""Usage signals on shortterm memories (seed 001): what agents report about a memory
(``access``, ``confirm``, ``correct``, ``contradict``, ``mark_important``,
``user_mention``; consolidation adds ``reinforce`` when a section is merged into it).

Each signal is a ``MemoryEvent`` row and moves the memory's ``MemoryUsage`` summary, in
one transaction: the summary is what promotion scoring reads, the rows are the record.
"""

import json

from django.db import connection, transaction
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
    skipped. Returns how many accesses were recorded.

    Every search answer pays for this, so it is two statements in one transaction: the
    events, and an upsert that moves each summary in the database (the same steps as
    ``_apply`` for an access: count, session list and count, the last access times) —
    no rows are read into Python and locked first."""
    if not hits:
        return 0
    session_id = (session_id or "")[:MAX_SESSION_CHARS]
    best_chunk: dict[int, int | None] = {}
    for memory_id, chunk_id in hits:
        best_chunk.setdefault(memory_id, chunk_id)
    memory_ids = sorted(best_chunk)
    at = timezone.now()
    usage, event, memories = (
        MemoryUsage._meta.db_table,
        MemoryEvent._meta.db_table,
        ShorttermMemory._meta.db_table,
    )
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO {event}
                (worker_id, memory_id, chunk_id, kind, session_id, actor, detail, created_at)
            SELECT m.worker_id, m.id, h.chunk_id, %s, %s, %s, 'search hit', %s
            FROM unnest(%s::bigint[], %s::bigint[]) AS h(memory_id, chunk_id)
            JOIN {memories} m ON m.id = h.memory_id AND m.worker_id = %s
            ORDER BY m.id
            RETURNING memory_id
            """,
            [
                UsageKind.ACCESS,
                session_id,
                actor[:200],
                at,
                memory_ids,
                [best_chunk[mid] for mid in memory_ids],
                worker_id,
            ],
        )
        present = [row[0] for row in cursor.fetchall()]
        if not present:
            return 0
        sessions = [session_id] if session_id else []
        cursor.execute(
            f"""
            INSERT INTO {usage} AS u (memory_id, worker_id, access_count, sessions,
                session_count, access_times, first_accessed_at, last_accessed_at,
                confirmations, corrections, contradictions, reinforcements, user_mentions,
                importance_marks, importance, updated_at)
            SELECT id, %s, 1, %s::jsonb, %s, jsonb_build_array(%s::text), %s, %s,
                   0, 0, 0, 0, 0, 0, 5.0, %s
            FROM unnest(%s::bigint[]) AS id ORDER BY id
            ON CONFLICT (memory_id) DO UPDATE SET
                access_count = u.access_count + 1,
                sessions = CASE WHEN %s = '' OR u.sessions ? %s THEN u.sessions
                                ELSE (SELECT coalesce(jsonb_agg(x ORDER BY i), '[]'::jsonb) FROM (
                                      SELECT x, i FROM jsonb_array_elements(
                                          u.sessions || jsonb_build_array(%s::text))
                                          WITH ORDINALITY AS t(x, i)
                                      ORDER BY i DESC LIMIT %s) kept) END,
                session_count = u.session_count
                    + CASE WHEN %s = '' OR u.sessions ? %s THEN 0 ELSE 1 END,
                access_times = (SELECT coalesce(jsonb_agg(x ORDER BY i), '[]'::jsonb) FROM (
                                  SELECT x, i FROM jsonb_array_elements(
                                      u.access_times || jsonb_build_array(%s::text))
                                      WITH ORDINALITY AS t(x, i)
                                  ORDER BY i DESC LIMIT %s) kept),
                first_accessed_at = coalesce(u.first_accessed_at, EXCLUDED.first_accessed_at),
                last_accessed_at = greatest(u.last_accessed_at, EXCLUDED.last_accessed_at),
                updated_at = EXCLUDED.updated_at
            """,
            [
                worker_id,
                json.dumps(sessions),
                len(sessions),
                at.isoformat(),
                at,
                at,
                at,
                present,
                session_id,
                session_id,
                session_id,
                MemoryUsage.MAX_SESSIONS,
                session_id,
                session_id,
                at.isoformat(),
                MemoryUsage.MAX_TIMES,
            ],
        )
    return len(present)
