"""Draining the outbox into Neo4j, and rebuilding the projection (DESIGN.md §3)."""

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from graph.models import Entity, GraphOutbox, GraphProjectionState, Relationship
from graph.projection.outbox import projection_enabled

logger = logging.getLogger(__name__)
BACKOFF_MAX = timedelta(minutes=30)


def _state() -> GraphProjectionState:
    state, _ = GraphProjectionState.objects.get_or_create(pk=1)
    return state


def _project(rows: list[GraphOutbox]) -> None:
    """Make Neo4j equal PostgreSQL for the rows' objects: MERGE what exists, delete what
    is gone. Entities first, so that relationships find their ends."""
    from graph.projection import nodes as neo

    neo.connect()
    entity_ids = {r.object_id for r in rows if r.kind == GraphOutbox.Kind.ENTITY}
    rel_ids = {r.object_id for r in rows if r.kind == GraphOutbox.Kind.RELATIONSHIP}
    entities = list(Entity.objects.filter(pk__in=entity_ids))
    relationships = list(Relationship.objects.filter(pk__in=rel_ids))
    neo.delete_relationships(sorted(rel_ids - {r.pk for r in relationships}))
    neo.delete_entities(sorted(entity_ids - {e.pk for e in entities}))
    neo.upsert_entities(entities)
    neo.upsert_relationships(relationships)


def graph_outbox_drain(*, limit: int = 500) -> dict:
    """Project due outbox rows. Rows are locked (SKIP LOCKED: two drains never take the
    same rows) and deleted only after Neo4j accepted them; on failure they stay, with
    exponential backoff. Safe to run twice."""
    if not projection_enabled():
        return {"projected": 0, "pending": 0, "skipped": "NEO4J_URL is not set"}
    now = timezone.now()
    with transaction.atomic():
        rows = list(
            GraphOutbox.objects.select_for_update(skip_locked=True)
            .filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
            .order_by("id")[:limit]
        )
        state = _state()
        state.last_drain_at = now
        if not rows:
            state.save()
            return {"projected": 0, "pending": GraphOutbox.objects.count()}
        try:
            _project(rows)
        except Exception as exc:  # noqa: BLE001 - any Neo4j/driver failure keeps the rows
            logger.warning("graph projection failed, %d row(s) kept for retry: %s", len(rows), exc)
            for row in rows:
                row.attempts += 1
                row.last_error = str(exc)[:2000]
                row.next_attempt_at = now + min(
                    timedelta(seconds=2 ** min(row.attempts, 11)), BACKOFF_MAX
                )
            GraphOutbox.objects.bulk_update(rows, ["attempts", "last_error", "next_attempt_at"])
            state.last_error = str(exc)[:2000]
            state.save()
            return {
                "projected": 0,
                "failed": len(rows),
                "pending": GraphOutbox.objects.count(),
                "error": str(exc),
            }
        GraphOutbox.objects.filter(pk__in=[r.pk for r in rows]).delete()
        state.last_success_at = now
        state.last_error = ""
        state.projected_total += len(rows)
        state.save()
    return {"projected": len(rows), "pending": GraphOutbox.objects.count()}


def graph_resync(*, batch: int = 1000, progress=None) -> dict:
    """Rebuild the whole projection from PostgreSQL: wipe, then MERGE every entity and
    relationship. Outbox rows older than the start are dropped (the resync covers them)."""
    from graph.projection import nodes as neo

    if not projection_enabled():
        raise RuntimeError("NEO4J_URL is not set: there is no projection to rebuild")
    started = timezone.now()
    neo.connect()
    neo.wipe()
    total = 0
    for model, upsert in ((Entity, neo.upsert_entities), (Relationship, neo.upsert_relationships)):
        ids = list(model.objects.order_by("pk").values_list("pk", flat=True))
        for start in range(0, len(ids), batch):
            upsert(list(model.objects.filter(pk__in=ids[start : start + batch])))
            total += len(ids[start : start + batch])
            if progress:
                progress(len(ids[start : start + batch]))
    GraphOutbox.objects.filter(created_at__lt=started).delete()
    state = _state()
    state.last_success_at = timezone.now()
    state.last_error = ""
    state.save()
    return {"projected": total, **neo.counts()}


def neo4j_status() -> dict:
    """The projection's outbox depth and last successful drain; nothing connects to Neo4j."""
    if not projection_enabled():
        return {"configured": False}
    state = GraphProjectionState.objects.filter(pk=1).first()
    return {
        "configured": True,
        "outbox_depth": GraphOutbox.objects.count(),
        "last_drain": state.last_drain_at.isoformat() if state and state.last_drain_at else None,
        "last_success": state.last_success_at.isoformat()
        if state and state.last_success_at
        else None,
        "last_error": state.last_error if state else "",
    }
