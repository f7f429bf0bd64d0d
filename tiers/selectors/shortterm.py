"""Reads of the Shortterm tier."""

from django.db.models import Count, Prefetch, QuerySet

from memoryhub.errors import DomainError, NotFoundError
from memoryhub.models import Worker
from tiers.models import ExtractionStatus, ShorttermChunk, ShorttermChunkParse, ShorttermMemory


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


def _joined(memory: ShorttermMemory, contents) -> str:
    parts = [memory.title, memory.summary, *contents]
    return "\n\n".join(p for p in parts if p)


def shortterm_memory_text(
    memory: ShorttermMemory, replacements: dict[int, str] | None = None
) -> str:
    """The memory's whole text: title, summary and chunks in order (``replacements``:
    chunk id → the content it is about to get). What its graph is extracted from."""
    replacements = replacements or {}
    chunks = memory.chunks.order_by("chunk_order").values_list("pk", "content")
    return _joined(memory, (replacements.get(pk, content) for pk, content in chunks))


def shortterm_growth_text(
    memory: ShorttermMemory, *, grown: list[str], before: int = 0
) -> str | None:
    """The text a memory that grows is read from — its title and summary, its ``before``
    last chunks (the context: a pronoun, a heading's subject) and the ``grown`` contents —
    when its graph is whole (its extraction done), so that what the growth states can be
    added to it. None when its extraction failed or waits: the memory is read whole."""
    whole = ShorttermMemory.objects.filter(
        pk=memory.pk, extraction_status=ExtractionStatus.DONE
    ).exists()
    if not whole:
        return None
    last = memory.chunks.order_by("-chunk_order").values_list("content", flat=True)[:before]
    return _joined(memory, [*reversed(list(last)), *grown])


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
