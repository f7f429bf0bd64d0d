"""Reads of the Longterm tier: current versions, what was valid at a time, and the
history of a source's versions."""

from django.db.models import Count, Max, Min, Q, QuerySet

from memoryhub.errors import DomainError, NotFoundError
from memoryhub.models import Worker
from memoryhub.validation import moment
from tiers.models import LongtermChunk


def longterm_chunks(
    *, worker: Worker, valid_at=None, confidence_threshold=None
) -> QuerySet[LongtermChunk]:
    """The versions valid at ``valid_at`` (a datetime or ISO text), or the current ones,
    newest first."""
    queryset = LongtermChunk.objects.filter(worker=worker).defer("embedding")
    if valid_at is None:
        queryset = queryset.filter(end_date__isnull=True)
    else:
        at = moment(valid_at, "valid_at")
        queryset = queryset.filter(start_date__lte=at).filter(
            Q(end_date__isnull=True) | Q(end_date__gt=at)
        )
    if confidence_threshold is not None:
        queryset = queryset.filter(confidence__gte=confidence_threshold)
    return queryset.order_by("-start_date", "shortterm_memory_id", "chunk_order")


def longterm_chunk_get(*, worker: Worker, chunk_id) -> LongtermChunk:
    try:
        return LongtermChunk.objects.defer("embedding").get(worker=worker, pk=int(chunk_id))
    except (LongtermChunk.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError(f"longterm chunk {chunk_id} not found") from exc


def longterm_chunk_history(*, worker: Worker, shortterm_memory_id) -> list[LongtermChunk]:
    """Every version promoted from a shortterm source, newest first (then by position)."""
    try:
        source = int(shortterm_memory_id)
    except (TypeError, ValueError) as exc:
        raise DomainError(
            "shortterm_memory_id must be an integer",
            fields={"shortterm_memory_id": "must be an integer"},
        ) from exc
    versions = list(
        LongtermChunk.objects.filter(worker=worker, shortterm_memory_id=source)
        .defer("embedding")
        .order_by("-start_date", "chunk_order", "-id")
    )
    if not versions:
        raise NotFoundError(
            f"no longterm versions of shortterm memory {source}",
            fields={"shortterm_memory_id": "never promoted"},
        )
    return versions


def longterm_sources(*, worker: Worker) -> QuerySet:
    """One row per promoted source: its title, versions, current chunks, first and last
    promotion."""
    return (
        LongtermChunk.objects.filter(worker=worker)
        .values("shortterm_memory_id")
        .annotate(
            title=Max("title"),
            versions=Count("id"),
            current=Count("id", filter=Q(end_date__isnull=True)),
            first_promoted=Min("start_date"),
            last_promoted=Max("start_date"),
        )
        .order_by("-last_promoted")
    )


def longterm_counts(*, worker: Worker) -> dict:
    row = LongtermChunk.objects.filter(worker=worker).aggregate(
        versions=Count("id"), current=Count("id", filter=Q(end_date__isnull=True))
    )
    return {"versions": row["versions"], "current": row["current"]}
