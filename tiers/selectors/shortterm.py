"""Reads of the Shortterm tier."""

from django.db.models import Count, Prefetch, QuerySet

from memoryhub.errors import DomainError, NotFoundError
from memoryhub.models import Worker
from tiers.models import ShorttermChunk, ShorttermChunkParse, ShorttermMemory


def shortterm_memory_list(*, worker: Worker) -> QuerySet[ShorttermMemory]:
    """Summaries, most recently updated first (``GetAllRecentMemories``)."""
    return (
        ShorttermMemory.objects.filter(worker=worker)
        .annotate(chunk_count=Count("chunks"))
        .order_by("-last_updated", "-id")
    )


def shortterm_memory_get(
    *, worker: Worker, memory_id, with_chunks: bool = False
) -> ShorttermMemory:
    queryset = ShorttermMemory.objects.filter(worker=worker)
    if with_chunks:
        queryset = queryset.prefetch_related(
            Prefetch(
                "chunks", queryset=ShorttermChunk.objects.order_by("chunk_order").defer("embedding")
            )
        )
    try:
        return queryset.get(pk=int(memory_id))
    except (ShorttermMemory.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError(f"shortterm memory {memory_id} not found") from exc


def shortterm_memory_text(
    memory: ShorttermMemory, replacements: dict[int, str] | None = None
) -> str:
    """The memory's whole text: title, summary and chunks in order (``replacements``:
    chunk id → the content it is about to get). What its graph is extracted from."""
    replacements = replacements or {}
    chunks = memory.chunks.order_by("chunk_order").values_list("pk", "content")
    parts = [
        memory.title,
        memory.summary,
        *(replacements.get(pk, content) for pk, content in chunks),
    ]
    return "\n\n".join(p for p in parts if p)


def shortterm_memory_tail_text(memory: ShorttermMemory, *, last: int) -> str:
    """The memory's title, summary and its ``last`` chunks in order: the context in which
    chunks appended to it are read."""
    chunks = list(memory.chunks.order_by("-chunk_order").values_list("content", flat=True)[:last])
    parts = [memory.title, memory.summary, *reversed(chunks)]
    return "\n\n".join(p for p in parts if p)


def shortterm_recent(
    *, worker: Worker, limit: int, max_limit: int, since=None
) -> list[ShorttermMemory]:
    if not 1 <= limit <= max_limit:
        raise DomainError(
            f"limit must be 1 to {max_limit}", fields={"limit": f"must be 1 to {max_limit}"}
        )
    queryset = shortterm_memory_list(worker=worker).order_by("-last_updated", "-id")
    if since is not None:
        queryset = queryset.filter(last_updated__gte=since)
    return list(queryset[:limit])


def shortterm_chunks_without_parse(*, chunk_ids: list[int]) -> dict[int, str]:
    """``{chunk_id: content}`` of these chunks that have no kept parse (gone ones absent)."""
    return dict(
        ShorttermChunk.objects.filter(pk__in=chunk_ids, parse__isnull=True).values_list(
            "pk", "content"
        )
    )


def shortterm_chunk_parses(*, chunk_ids: list[int]) -> dict[int, bytes]:
    """The kept parses of these chunks (``memoryhub.nlp.remember_stored`` reads them), by
    chunk id; chunks without one are absent."""
    if not chunk_ids:
        return {}
    rows = ShorttermChunkParse.objects.filter(chunk_id__in=chunk_ids).values_list(
        "chunk_id", "data"
    )
    return {chunk_id: bytes(data) for chunk_id, data in rows}
