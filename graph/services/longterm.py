"""The longterm graph: entities and relationships of promoted memories (seed 000,
"Shortterm to Longterm Promotion", steps 4 and 5).

- Entities merge by (worker, normalised name, type): an existing one moves its
  confidence to ``0.7·old + 0.3·new`` and its ``last_seen`` to now; a new one starts with
  the memory's importance.
- Relationships are versioned: (from, to, type, start_date) is unique. The current
  version of a (from, to, type) is updated in place (max confidence and strength,
  ``last_updated``) when it states the same thing (same description); otherwise a new
  version starts now.

Runs in the caller's transaction; every change goes to the Neo4j outbox.
"""

from django.utils import timezone

from graph.models import Entity, Relationship
from graph.projection.outbox import outbox_record
from memoryhub.models import Worker
from tiers.models import Tier

KEEP_CONFIDENCE = 0.7  # seed 000: weight of the accumulated confidence
MAX_SOURCES = 50  # shortterm sources remembered on a longterm entity or relationship


def updated_confidence(existing: float, new_evidence: float) -> float:
    """Seed 000's weighted average favouring accumulated evidence."""
    return min(1.0, max(0.0, KEEP_CONFIDENCE * existing + (1 - KEEP_CONFIDENCE) * new_evidence))


def _with_source(metadata: dict, memory_id: int) -> dict:
    sources = [s for s in (metadata or {}).get("sources", []) if s != memory_id]
    return {**(metadata or {}), "sources": (sources + [memory_id])[-MAX_SOURCES:]}


def graph_fingerprint_parts(*, memory_id: int) -> list[str]:
    """What of a memory's graph promotion carries: its entities and relationships."""
    entities = Entity.objects.filter(tier=Tier.SHORTTERM, source_memory_id=memory_id)
    parts = sorted(f"e:{e.normalized_name}:{e.type}" for e in entities)
    relationships = Relationship.objects.filter(
        tier=Tier.SHORTTERM, source_memory_id=memory_id
    ).select_related("from_entity", "to_entity")
    parts += sorted(
        f"r:{r.from_entity.normalized_name}:{r.type}:{r.to_entity.normalized_name}:{r.description}"
        for r in relationships
    )
    return parts


def graph_promote(*, worker: Worker, memory_id: int, importance: float, now=None) -> dict:
    """Merge a shortterm memory's graph into the worker's longterm graph. Returns counts
    ``{entities_created, entities_updated, relationships_created, relationships_updated}``."""
    now = now or timezone.now()
    counts = dict.fromkeys(
        ("entities_created", "entities_updated", "relationships_created", "relationships_updated"),
        0,
    )
    shortterm_entities = list(
        Entity.objects.filter(tier=Tier.SHORTTERM, source_memory_id=memory_id).order_by("pk")
    )
    if not shortterm_entities:
        return counts
    keys = {(e.normalized_name, e.type) for e in shortterm_entities}
    existing = {
        (e.normalized_name, e.type): e
        for e in Entity.objects.select_for_update()
        .filter(
            worker=worker,
            tier=Tier.LONGTERM,
            normalized_name__in=[name for name, _ in keys],
        )
        .order_by("pk")
    }
    longterm_of: dict[int, Entity] = {}
    changed_entities = []
    for entity in shortterm_entities:
        key = (entity.normalized_name, entity.type)
        target = existing.get(key)
        if target is None:
            target = Entity.objects.create(
                tier=Tier.LONGTERM,
                worker=worker,
                source_memory=None,
                name=entity.name,
                normalized_name=entity.normalized_name,
                type=entity.type,
                description=entity.description,
                confidence=entity.confidence,
                importance=importance,
                first_seen=now,
                last_seen=now,
                metadata=_with_source(entity.metadata, memory_id),
            )
            existing[key] = target
            counts["entities_created"] += 1
        elif target.pk not in {e.pk for e in changed_entities}:
            target.confidence = updated_confidence(target.confidence, entity.confidence)
            target.last_seen = now
            target.importance = max(target.importance or 0.0, importance)
            if not target.description and entity.description:
                target.description = entity.description
            target.metadata = _with_source(target.metadata, memory_id)
            target.save(
                update_fields=["confidence", "last_seen", "importance", "description", "metadata"]
            )
            counts["entities_updated"] += 1
        changed_entities.append(target)
        longterm_of[entity.pk] = target
    changed_relationships = []
    for relationship in Relationship.objects.filter(
        tier=Tier.SHORTTERM, source_memory_id=memory_id
    ).order_by("pk"):
        source = longterm_of.get(relationship.from_entity_id)
        target = longterm_of.get(relationship.to_entity_id)
        if source is None or target is None or source.pk == target.pk:
            continue
        current = (
            Relationship.objects.select_for_update()
            .filter(
                tier=Tier.LONGTERM, from_entity=source, to_entity=target, type=relationship.type
            )
            .order_by("-start_date", "-pk")
            .first()
        )
        if current is not None and (
            current.description == relationship.description or current.start_date == now
        ):
            current.confidence = max(current.confidence, relationship.confidence)
            current.strength = max(current.strength, relationship.strength)
            current.last_updated = now
            current.metadata = _with_source(current.metadata, memory_id)
            current.save(update_fields=["confidence", "strength", "last_updated", "metadata"])
            counts["relationships_updated"] += 1
            changed_relationships.append(current.pk)
            continue
        created = Relationship.objects.create(
            tier=Tier.LONGTERM,
            worker=worker,
            source_memory=None,
            from_entity=source,
            to_entity=target,
            type=relationship.type,
            description=relationship.description,
            confidence=relationship.confidence,
            strength=relationship.strength,
            start_date=now,
            last_updated=now,
            metadata=_with_source(relationship.metadata, memory_id),
        )
        counts["relationships_created"] += 1
        changed_relationships.append(created.pk)
    outbox_record(
        entity_ids=sorted({e.pk for e in changed_entities}), relationship_ids=changed_relationships
    )
    return counts
