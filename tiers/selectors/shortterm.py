"""Reads of the Shortterm tier."""

from django.db import connection
from django.db.models import Count, Prefetch, QuerySet

from memoryhub.errors import DomainError, NotFoundError
from memoryhub.models import Worker
from tiers.models import ShorttermChunk, ShorttermMemory


def shortterm_memory_list(*, worker: Worker) -> QuerySet[ShorttermMemory]:
    """Summaries, most recently updated first (``GetAllRecentMemories``)."""
    return (
        ShorttermMemory.objects.filter(worker=worker)
        .annotate(chunk_count=Count("chunks"))
        .order_by("-last_updated", "-id")
    )


def shortterm_memory_get(*, worker: Worker, memory_id, with_chunks: bool = False) -> ShorttermMemory:
    queryset = ShorttermMemory.objects.filter(worker=worker)
    if with_chunks:
        queryset = queryset.prefetch_related(
            Prefetch("chunks", queryset=ShorttermChunk.objects.order_by("chunk_order").defer("embedding"))
        )
    try:
        return queryset.get(pk=int(memory_id))
    except (ShorttermMemory.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError(f"shortterm memory {memory_id} not found") from exc


def shortterm_recent(*, worker: Worker, limit: int, max_limit: int, since=None) -> list[ShorttermMemory]:
    if not 1 <= limit <= max_limit:
        raise DomainError(f"limit must be 1 to {max_limit}", fields={"limit": f"must be 1 to {max_limit}"})
    queryset = shortterm_memory_list(worker=worker).order_by("-last_updated", "-id")
    if since is not None:
        queryset = queryset.filter(last_updated__gte=since)
    return list(queryset[:limit])


def nearest_chunks(*, vector: str, limit: int, worker_id: int | None = None, memory_id: int | None = None) -> list[dict]:
    """The ``limit`` chunks of a worker (or of one memory) closest to ``vector`` (pgvector
    text), by exact cosine — a scan of their own rows, never the shared HNSW graph, whose
    filtering could miss them: ``[{chunk_id, memory_id, chunk_order, content,
    similarity}]``, most similar first. For the migration's candidates and
    ``auto_resolve``; search has its own ranking (HNSW for large workers, filters)."""
    if (worker_id is None) == (memory_id is None):
        raise ValueError("give exactly one of worker_id and memory_id")
    column, value = ("worker_id", worker_id) if memory_id is None else ("memory_id", memory_id)
    with connection.cursor() as cursor:
        cursor.execute(
            # "+ 0": an order no index can give, so each row's distance is computed once
            # in a scan of the rows the filter selects.
            f"""SELECT id, memory_id, chunk_order, content, (embedding <=> %s::vector) + 0 AS distance
                FROM {ShorttermChunk._meta.db_table}
                WHERE {column} = %s AND embedding IS NOT NULL ORDER BY distance, id LIMIT %s""",
            [vector, value, limit],
        )
        return [{"chunk_id": r[0], "memory_id": r[1], "chunk_order": r[2], "content": r[3],
                 "similarity": 1.0 - float(r[4])} for r in cursor.fetchall()]
