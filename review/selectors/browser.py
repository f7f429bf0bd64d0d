"""Reads of the staff's tier browser (``review.views.browser``): each worker's tiers as the
pages show them, composed from the tiers, the graph, consolidation's capacity and the
review queue. Nothing here writes."""

import math
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Count, Max

from consolidation.selectors.capacity import worker_capacities
from graph.models import Entity, Relationship
from graph.selectors.graph import entity_count, entity_list, entity_search, neighbourhood
from memoryhub.errors import NotFoundError
from memoryhub.models import Worker
from review.models import MergeConflict
from tiers.models import ActiveMemory, LongtermChunk, ShorttermChunk, ShorttermMemory
from tiers.search import search
from tiers.selectors.active import active_memory_sections_view

# The graph tab draws at most this many entities of a neighbourhood (the table lists them).
NEIGHBOURHOOD_DRAWN = 40
BROWSER_HOPS = (1, 2)


@dataclass(frozen=True)
class WorkerRow:
    """One worker with the size of each of its tiers."""

    worker: Worker
    active_memories: int
    shortterm_memories: int
    chunks: int
    entities: int
    relationships: int
    pending_conflicts: int
    last_activity: datetime | None
    longterm_chunks: int = 0  # current longterm versions


def _per_worker(queryset, worker_ids, **aggregates) -> dict[int, dict]:
    if worker_ids is not None:
        queryset = queryset.filter(worker_id__in=worker_ids)
    return {row["worker"]: row for row in queryset.values("worker").annotate(**aggregates)}


def browser_workers(*, worker_ids: list[int] | None = None) -> list[WorkerRow]:
    """Every worker (or those asked for), by name, with its counts per tier, its last
    activity (the latest change to an active or shortterm memory) and its pending
    conflicts. One grouped query per table, whatever the number of workers."""
    workers = Worker.objects.order_by("name")
    if worker_ids is not None:
        workers = workers.filter(pk__in=worker_ids)
    active = _per_worker(ActiveMemory.objects, worker_ids, n=Count("id"), last=Max("updated_at"))
    shortterm = _per_worker(
        ShorttermMemory.objects, worker_ids, n=Count("id"), last=Max("last_updated")
    )
    chunks = _per_worker(ShorttermChunk.objects, worker_ids, n=Count("id"))
    entities = _per_worker(Entity.objects, worker_ids, n=Count("id"))
    relationships = _per_worker(Relationship.objects, worker_ids, n=Count("id"))
    longterm = _per_worker(
        LongtermChunk.objects.filter(end_date__isnull=True), worker_ids, n=Count("id")
    )
    conflicts = _per_worker(
        MergeConflict.objects.filter(status=MergeConflict.Status.PENDING), worker_ids, n=Count("id")
    )
    rows = []
    for worker in workers:
        times = [t[worker.pk]["last"] for t in (active, shortterm) if worker.pk in t]
        rows.append(
            WorkerRow(
                worker=worker,
                active_memories=active.get(worker.pk, {}).get("n", 0),
                shortterm_memories=shortterm.get(worker.pk, {}).get("n", 0),
                chunks=chunks.get(worker.pk, {}).get("n", 0),
                entities=entities.get(worker.pk, {}).get("n", 0),
                relationships=relationships.get(worker.pk, {}).get("n", 0),
                pending_conflicts=conflicts.get(worker.pk, {}).get("n", 0),
                last_activity=max((t for t in times if t), default=None),
                longterm_chunks=longterm.get(worker.pk, {}).get("n", 0),
            )
        )
    return rows


def browser_worker(*, worker_id) -> WorkerRow:
    """One worker with its counts; ``NotFoundError`` when there is no such worker."""
    try:
        worker_id = int(worker_id)
    except (TypeError, ValueError) as exc:
        raise NotFoundError(f"worker {worker_id} not found") from exc
    rows = browser_workers(worker_ids=[worker_id])
    if not rows:
        raise NotFoundError(f"worker {worker_id} not found")
    return rows[0]


# Active tier ------------------------------------------------------------------------------


def _percent(value: float, limit: float) -> int:
    """0-100 for a bar (a value past its limit fills the bar)."""
    if not limit:
        return 0
    return max(0, min(100, round(100 * value / limit)))


def browser_capacity(*, worker: Worker) -> dict:
    """How close the worker's active memory is to the consolidation capacity: sections
    updated at least ``min_update_count`` times are pending; a sweep is queued when their
    update counts add up to ``capacity_updates`` or ``capacity_memories`` active memories
    hold one (a limit of 0 switches that trigger off)."""
    config = settings.MEMORYHUB_MIGRATION
    capacity = worker_capacities(worker_ids=[worker.pk])[worker.pk]
    enabled = bool(capacity.updates_limit or capacity.memories_limit)
    share = capacity.share
    return {
        "enabled": enabled,
        "crossed": capacity.crossed,
        "percent": round(100 * share) if enabled else 0,
        "bar": _percent(share, 1.0),
        "level": "bad" if share >= 1.0 else "warn" if share >= 0.8 else "ok",
        "min_update_count": config["min_update_count"],
        "pending_updates": capacity.pending_updates,
        "updates_limit": capacity.updates_limit,
        "updates_bar": _percent(capacity.pending_updates, capacity.updates_limit),
        "pending_memories": capacity.pending_memories,
        "memories_limit": capacity.memories_limit,
        "memories_bar": _percent(capacity.pending_memories, capacity.memories_limit),
    }


def browser_active_memories(memories) -> list[dict]:
    """Active memories as cards: their sections in template order (display name, markdown
    content, update count) and which sections wait for consolidation."""
    threshold = settings.MEMORYHUB_MIGRATION["min_update_count"]
    cards = []
    for memory in memories:
        sections = [
            row | {"pending": row["update_count"] >= threshold}
            for row in active_memory_sections_view(memory)
        ]
        cards.append(
            {
                "memory": memory,
                "sections": sections,
                "total_updates": sum(s["update_count"] for s in sections),
                "pending_sections": sum(1 for s in sections if s["pending"]),
            }
        )
    return cards


# Graph ------------------------------------------------------------------------------------


def _with_source_titles(worker: Worker, entities: list[dict]) -> list[dict]:
    ids = {e["source_memory_id"] for e in entities if e["source_memory_id"]}
    titles = dict(
        ShorttermMemory.objects.filter(worker=worker, pk__in=ids).values_list("pk", "title")
    )
    return [e | {"source_title": titles.get(e["source_memory_id"], "")} for e in entities]


def browser_entities(*, worker: Worker, prefix: str = "", limit: int = 100) -> dict:
    """The worker's entities by name, those whose name starts with ``prefix`` when one is
    given (``DomainError`` for a prefix without letters or digits), with the title of the
    memory each comes from."""
    if prefix.strip():
        rows = entity_search(worker=worker, prefix=prefix, limit=limit)
    else:
        rows = entity_list(worker=worker, limit=limit)
    return {
        "entities": _with_source_titles(worker, rows),
        "total": entity_count(worker=worker),
        "limit": limit,
    }


def browser_neighbourhood(*, worker: Worker, entity_id, hops: int = 1) -> dict:
    """An entity's neighbourhood (``hops`` 1 or 2) for the graph tab: the nearest
    ``NEIGHBOURHOOD_DRAWN`` entities with their distance, the relationships among them with
    both ends' names, and ``truncated`` when there were more. ``NotFoundError`` for an
    entity that is not the worker's."""
    hops = hops if hops in BROWSER_HOPS else BROWSER_HOPS[0]
    found = neighbourhood(
        worker=worker, entity_id=entity_id, hops=hops, limit=NEIGHBOURHOOD_DRAWN + 1
    )
    truncated = len(found["entities"]) > NEIGHBOURHOOD_DRAWN
    entities = _with_source_titles(worker, found["entities"][:NEIGHBOURHOOD_DRAWN])
    names = {e["id"]: e["name"] for e in entities}
    relationships = [
        r | {"from_name": names[r["from_id"]], "to_name": names[r["to_id"]]}
        for r in found["relationships"]
        if r["from_id"] in names and r["to_id"] in names
    ]
    center = next(e for e in entities if e["id"] == found["center"])
    return {
        "center": center,
        "hops": hops,
        "entities": entities,
        "relationships": relationships,
        "truncated": truncated,
        "types": sorted({e["type"] for e in entities}),
    }


# Search -----------------------------------------------------------------------------------


def browser_search(*, worker: Worker, query: str, limit: int) -> list[dict]:
    """The worker's hybrid search (``tiers.search.search``), each hit with its component
    scores and a 0-100 bar for each: the fused score against the best possible (first in
    both lists), the cosine similarity against 1, the BM25 score against the best of these
    hits, each rank on a log scale of the candidate list it comes from. ``DomainError`` for a bad
    query."""
    config = settings.MEMORYHUB_SEARCH
    hits = search(worker=worker, query=query, mode="hybrid", limit=limit)
    best_fused = (config["vector_weight"] + config["bm25_weight"]) / (config["rrf_k"] + 1)
    best_bm25 = max((hit.bm25_score for hit in hits), default=0.0)
    candidates = max(config["candidates"], limit, 2)

    def rank_bar(rank: int | None) -> int:
        # On a log scale: the first places differ most (1st 100%, 2nd 83%, 60th of 60: 0%).
        return 0 if rank is None else _percent(1 - math.log(rank) / math.log(candidates), 1.0)

    return [
        {
            "hit": hit,
            "fused_bar": _percent(hit.fused_score or 0.0, best_fused),
            "similarity_bar": _percent(max(hit.similarity or 0.0, 0.0), 1.0),
            "bm25_bar": _percent(hit.bm25_score, best_bm25),
            "vector_rank_bar": rank_bar(hit.vector_rank),
            "bm25_rank_bar": rank_bar(hit.bm25_rank),
        }
        for hit in hits
    ]
