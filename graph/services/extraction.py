"""Storing the graph extracted from a shortterm memory, in the memory's transaction."""

import logging

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from graph.differences import graph_differences
from graph.extraction import get_extractor
from graph.extraction.base import (
    ExtractedEntity,
    ExtractedRelationship,
    Extraction,
    ExtractionError,
)
from graph.models import Entity, Relationship
from graph.projection.outbox import outbox_record, outbox_record_memory
from graph.selectors.graph import entity_dict, relationship_dict
from graph.vocabulary import normalize_name, normalize_relation_type, normalize_type
from tiers.models import ExtractionStatus, ShorttermMemory, Tier
from tiers.selectors.shortterm import shortterm_memory_text

logger = logging.getLogger(__name__)


def extract(text: str) -> tuple[Extraction | None, str]:
    """Run the configured extractor; (None, error) when it fails. Never raises."""
    try:
        return get_extractor().extract(text), ""
    except ExtractionError as exc:
        logger.warning("entity extraction failed: %s", exc)
        return None, str(exc)[:2000]


def _confirm(confidence: float) -> float:
    """Confidence after another statement confirms a fact: part of the way to 1."""
    return min(
        1.0, confidence + (1.0 - confidence) * settings.MEMORYHUB_GRAPH["confirmation_boost"]
    )


def _clamp(value: float) -> float:
    return min(1.0, max(0.0, value))


def _new_entity(memory: ShorttermMemory, item, normalized: str, kind: str, now) -> Entity:
    """An unsaved shortterm entity of ``memory`` from an extracted one."""
    return Entity(
        tier=Tier.SHORTTERM,
        worker_id=memory.worker_id,
        source_memory=memory,
        name=item.name[:300],
        normalized_name=normalized[:300],
        type=kind,
        description=item.description,
        confidence=_clamp(item.confidence),
        first_seen=now,
        last_seen=now,
    )


def _new_relationship(
    memory: ShorttermMemory, item, source, target, kind: str, now
) -> Relationship:
    """An unsaved shortterm relationship of ``memory`` from an extracted one."""
    return Relationship(
        tier=Tier.SHORTTERM,
        worker_id=memory.worker_id,
        source_memory=memory,
        from_entity=source,
        to_entity=target,
        type=kind,
        description=item.description,
        confidence=_clamp(item.confidence),
        strength=_clamp(item.strength),
        first_observed=now,
        last_observed=now,
    )


def graph_store_extraction(
    *, memory: ShorttermMemory, extraction: Extraction, confirmed: Extraction | None = None
) -> tuple[list, list]:
    """Make the memory's shortterm graph what ``extraction`` says, in the caller's
    transaction (the one writing the memory's chunks). Entities and relationships that stay
    keep their ids, first-seen dates and edits (``last_seen`` moves on); ones the text no
    longer yields go; new ones are added. Those that were there already and that
    ``confirmed`` (the graph of a section merged into the memory) states again gain
    confidence."""
    outbox_record_memory(memory_id=memory.pk)  # every change reaches the projection
    now = timezone.now()
    confirmed_names = {normalize_name(e.name) for e in confirmed.entities} if confirmed else set()
    confirmed_triples = (
        {
            (normalize_name(r.source), normalize_relation_type(r.type), normalize_name(r.target))
            for r in confirmed.relationships
        }
        if confirmed
        else set()
    )
    old_entities = {
        (e.normalized_name, e.type): e
        for e in Entity.objects.filter(source_memory=memory, tier=Tier.SHORTTERM)
    }
    by_key: dict[tuple[str, str], Entity] = {}
    by_name: dict[str, Entity] = {}
    for item in extraction.entities:
        normalized = normalize_name(item.name)
        if not normalized:
            continue
        key = (normalized[:300], normalize_type(item.type))
        confidence = _clamp(item.confidence)
        if key in by_key:
            by_key[key].confidence = max(by_key[key].confidence, confidence)
            continue
        entity = old_entities.get(key)
        if entity is not None:
            entity.last_seen = now
            entity.confidence = (
                _confirm(entity.confidence)
                if normalized in confirmed_names
                else max(entity.confidence, confidence)
            )
        else:
            entity = _new_entity(memory, item, normalized, key[1], now)
        by_key[key] = entity
        by_name.setdefault(normalized, entity)
    kept = [e for e in by_key.values() if e.pk]
    Relationship.objects.filter(source_memory=memory, tier=Tier.SHORTTERM).exclude(
        from_entity__in=kept, to_entity__in=kept
    ).delete()
    Entity.objects.filter(source_memory=memory, tier=Tier.SHORTTERM).exclude(
        pk__in=[e.pk for e in kept]
    ).delete()
    Entity.objects.bulk_update(kept, ["last_seen", "confidence"])
    Entity.objects.bulk_create([e for e in by_key.values() if not e.pk])

    old_relations = {
        (r.from_entity_id, r.to_entity_id, r.type): r
        for r in Relationship.objects.filter(source_memory=memory, tier=Tier.SHORTTERM)
    }
    relations: dict[tuple, Relationship] = {}
    for item in extraction.relationships:
        source, target = (
            by_name.get(normalize_name(item.source)),
            by_name.get(normalize_name(item.target)),
        )
        if source is None or target is None or source is target:
            continue  # a relationship needs two distinct extracted entities
        key = (source.pk, target.pk, normalize_relation_type(item.type))
        if key in relations:
            continue
        relation = old_relations.get(key)
        if relation is not None:
            relation.last_observed = now
            triple = (source.normalized_name, key[2], target.normalized_name)
            if triple in confirmed_triples:
                relation.confidence = _confirm(relation.confidence)
        else:
            relation = _new_relationship(memory, item, source, target, key[2], now)
        relations[key] = relation
    Relationship.objects.filter(
        pk__in=[r.pk for k, r in old_relations.items() if k not in relations]
    ).delete()
    Relationship.objects.bulk_update(
        [r for r in relations.values() if r.pk], ["last_observed", "confidence"]
    )
    Relationship.objects.bulk_create([r for r in relations.values() if not r.pk])
    entities, relationships = list(by_key.values()), list(relations.values())
    outbox_record(
        entity_ids=[e.pk for e in entities], relationship_ids=[r.pk for r in relationships]
    )
    return entities, relationships


def _stored_extraction(entities: list[Entity], relationships: list[Relationship]) -> Extraction:
    return Extraction(
        entities=[
            ExtractedEntity(
                name=e.name, type=e.type, description=e.description, confidence=e.confidence
            )
            for e in entities
        ],
        relationships=[
            ExtractedRelationship(
                source=r.from_entity.name,
                target=r.to_entity.name,
                type=r.type,
                description=r.description,
                confidence=r.confidence,
                strength=r.strength,
            )
            for r in relationships
        ],
    )


def graph_grow(*, memory: ShorttermMemory, extraction: Extraction) -> tuple[dict, dict]:
    """Add to the memory's stored graph what ``extraction`` states and it lacks, and report
    what contradicts it (``graph.differences``), in the caller's transaction (which holds
    the memory's row lock). Contradicting facts are reported, never stored: a new
    relationship needs both its entities and no conflict. Returns the entity and
    relationship differences, ``{"new": [stored rows], "conflicts": [...]}`` each."""
    now = timezone.now()
    entities = list(Entity.objects.filter(source_memory=memory, tier=Tier.SHORTTERM))
    relationships = list(
        Relationship.objects.filter(source_memory=memory, tier=Tier.SHORTTERM).select_related(
            "from_entity", "to_entity"
        )
    )
    entity_diff, relationship_diff = graph_differences(
        extraction, _stored_extraction(entities, relationships)
    )
    by_name = {e.normalized_name: e for e in entities}
    stated = {normalize_name(item.name): item for item in reversed(extraction.entities)}
    new_entities = []
    for new in entity_diff["new"]:
        name = normalize_name(new["name"])
        item = stated[name]
        entity = _new_entity(memory, item, name, new["type"], now)
        entity.save()
        by_name[name] = entity
        new_entities.append(entity)
    stated_relations = {
        (normalize_name(r.source), normalize_relation_type(r.type), normalize_name(r.target)): r
        for r in reversed(extraction.relationships)
    }
    new_relationships = []
    for new in relationship_diff["new"]:
        key = (normalize_name(new["from"]), new["type"], normalize_name(new["to"]))
        source, target = by_name.get(key[0]), by_name.get(key[2])
        if source is None or target is None or source.pk == target.pk:
            continue
        relation = _new_relationship(memory, stated_relations[key], source, target, key[1], now)
        relation.save()
        new_relationships.append(relation)
    outbox_record(
        entity_ids=[e.pk for e in new_entities], relationship_ids=[r.pk for r in new_relationships]
    )
    return (
        {"new": [entity_dict(e) for e in new_entities], "conflicts": entity_diff["conflicts"]},
        {
            "new": [relationship_dict(r) for r in new_relationships],
            "conflicts": relationship_diff["conflicts"],
        },
    )


def graph_apply_extraction(
    *,
    memory: ShorttermMemory,
    extraction: Extraction | None,
    error: str,
    confirmed: Extraction | None = None,
) -> None:
    """Store a finished extraction, or record the failure for the sweep. In the caller's
    transaction."""
    if extraction is not None:
        graph_store_extraction(memory=memory, extraction=extraction, confirmed=confirmed)
        ShorttermMemory.objects.filter(pk=memory.pk).update(
            extraction_status=ExtractionStatus.DONE,
            extraction_error="",
            extraction_attempts=F("extraction_attempts") + 1,
        )
    else:
        ShorttermMemory.objects.filter(pk=memory.pk).update(
            extraction_status=ExtractionStatus.FAILED,
            extraction_error=error,
            extraction_attempts=F("extraction_attempts") + 1,
        )


def memory_extract_graph(*, memory_id: int) -> str:
    """(Re-)extract one memory's graph. Safe to run twice; a deleted memory is a no-op."""
    memory = ShorttermMemory.objects.filter(pk=memory_id).first()
    if memory is None:
        return "gone"
    extraction, error = extract(shortterm_memory_text(memory))
    with transaction.atomic():
        locked = ShorttermMemory.objects.select_for_update().filter(pk=memory_id).first()
        if locked is None:
            return "gone"
        graph_apply_extraction(memory=locked, extraction=extraction, error=error)
    return "done" if extraction is not None else "failed"


def extraction_sweep(*, limit: int = 100) -> dict:
    """Retry memories whose extraction is pending or failed (up to the attempt limit)."""
    max_attempts = settings.MEMORYHUB_GRAPH["max_extraction_attempts"]
    ids = list(
        ShorttermMemory.objects.filter(
            extraction_status__in=[ExtractionStatus.PENDING, ExtractionStatus.FAILED],
            extraction_attempts__lt=max_attempts,
        )
        .order_by("extraction_attempts", "last_updated")
        .values_list("pk", flat=True)[:limit]
    )
    outcomes = {"done": 0, "failed": 0, "gone": 0}
    for memory_id in ids:
        outcomes[memory_extract_graph(memory_id=memory_id)] += 1
    return outcomes
