"""Storing the graph extracted from a shortterm memory, in the memory's transaction."""

import logging

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from graph.extraction import get_extractor
from graph.extraction.base import Extraction, ExtractionError
from graph.models import Entity, Relationship
from graph.services.outbox import outbox_record, outbox_record_memory
from graph.vocabulary import normalize_name, normalize_relation_type, normalize_type
from tiers.models import ExtractionStatus, ShorttermMemory, Tier

logger = logging.getLogger(__name__)


def memory_text(memory: ShorttermMemory, replacements: dict[int, str] | None = None) -> str:
    """The text extraction reads: title, summary and chunks in order (``replacements``:
    chunk id → the content it is about to get)."""
    replacements = replacements or {}
    chunks = memory.chunks.order_by("chunk_order").values_list("pk", "content")
    parts = [memory.title, memory.summary, *(replacements.get(pk, content) for pk, content in chunks)]
    return "\n\n".join(p for p in parts if p)


def extract(text: str) -> tuple[Extraction | None, str]:
    """Run the configured extractor; (None, error) when it fails. Never raises."""
    try:
        return get_extractor().extract(text), ""
    except ExtractionError as exc:
        logger.warning("entity extraction failed: %s", exc)
        return None, str(exc)[:2000]


def _confirm(confidence: float) -> float:
    """Confidence after another statement confirms a fact: part of the way to 1."""
    return min(1.0, confidence + (1.0 - confidence) * settings.MEMORYHUB_GRAPH["confirmation_boost"])


def graph_store_extraction(*, memory: ShorttermMemory, extraction: Extraction,
                           confirmed: Extraction | None = None) -> tuple[list, list]:
    """Make the memory's shortterm graph what ``extraction`` says, in the caller's
    transaction (the one writing the memory's chunks). Entities and relationships that stay
    keep their ids, first-seen dates and edits (``last_seen`` moves on); ones the text no
    longer yields go; new ones are added. Those that were there already and that
    ``confirmed`` (the graph of a section merged into the memory) states again gain
    confidence."""
    outbox_record_memory(memory_id=memory.pk)  # every change reaches the projection
    now = timezone.now()
    confirmed_names = {normalize_name(e.name) for e in confirmed.entities} if confirmed else set()
    confirmed_triples = {(normalize_name(r.source), normalize_relation_type(r.type), normalize_name(r.target))
                         for r in confirmed.relationships} if confirmed else set()
    old_entities = {(e.normalized_name, e.type): e for e in Entity.objects.filter(source_memory=memory, tier=Tier.SHORTTERM)}
    by_key: dict[tuple[str, str], Entity] = {}
    by_name: dict[str, Entity] = {}
    for item in extraction.entities:
        normalized = normalize_name(item.name)
        if not normalized:
            continue
        key = (normalized[:300], normalize_type(item.type))
        confidence = min(1.0, max(0.0, item.confidence))
        if key in by_key:
            by_key[key].confidence = max(by_key[key].confidence, confidence)
            continue
        entity = old_entities.get(key)
        if entity is not None:
            entity.last_seen = now
            entity.confidence = _confirm(entity.confidence) if normalized in confirmed_names \
                else max(entity.confidence, confidence)
        else:
            entity = Entity(
                tier=Tier.SHORTTERM, worker_id=memory.worker_id, source_memory=memory, name=item.name[:300],
                normalized_name=normalized[:300], type=key[1], description=item.description,
                confidence=confidence, first_seen=now, last_seen=now,
            )
        by_key[key] = entity
        by_name.setdefault(normalized, entity)
    kept = [e for e in by_key.values() if e.pk]
    Relationship.objects.filter(source_memory=memory, tier=Tier.SHORTTERM).exclude(
        from_entity__in=kept, to_entity__in=kept).delete()
    Entity.objects.filter(source_memory=memory, tier=Tier.SHORTTERM).exclude(pk__in=[e.pk for e in kept]).delete()
    Entity.objects.bulk_update(kept, ["last_seen", "confidence"])
    Entity.objects.bulk_create([e for e in by_key.values() if not e.pk])

    old_relations = {(r.from_entity_id, r.to_entity_id, r.type): r
                     for r in Relationship.objects.filter(source_memory=memory, tier=Tier.SHORTTERM)}
    relations: dict[tuple, Relationship] = {}
    for item in extraction.relationships:
        source, target = by_name.get(normalize_name(item.source)), by_name.get(normalize_name(item.target))
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
            relation = Relationship(
                tier=Tier.SHORTTERM, worker_id=memory.worker_id, source_memory=memory, from_entity=source,
                to_entity=target, type=key[2], description=item.description,
                confidence=min(1.0, max(0.0, item.confidence)), strength=min(1.0, max(0.0, item.strength)),
                first_observed=now, last_observed=now,
            )
        relations[key] = relation
    Relationship.objects.filter(pk__in=[r.pk for k, r in old_relations.items() if k not in relations]).delete()
    Relationship.objects.bulk_update([r for r in relations.values() if r.pk], ["last_observed", "confidence"])
    Relationship.objects.bulk_create([r for r in relations.values() if not r.pk])
    entities, relationships = list(by_key.values()), list(relations.values())
    outbox_record(entity_ids=[e.pk for e in entities], relationship_ids=[r.pk for r in relationships])
    return entities, relationships


def graph_apply_extraction(*, memory: ShorttermMemory, extraction: Extraction | None, error: str,
                           confirmed: Extraction | None = None) -> None:
    """Store a finished extraction, or record the failure for the sweep. In the caller's
    transaction."""
    if extraction is not None:
        graph_store_extraction(memory=memory, extraction=extraction, confirmed=confirmed)
        ShorttermMemory.objects.filter(pk=memory.pk).update(
            extraction_status=ExtractionStatus.DONE, extraction_error="", extraction_attempts=F("extraction_attempts") + 1
        )
    else:
        ShorttermMemory.objects.filter(pk=memory.pk).update(
            extraction_status=ExtractionStatus.FAILED, extraction_error=error,
            extraction_attempts=F("extraction_attempts") + 1,
        )


def memory_extract_graph(*, memory_id: int) -> str:
    """(Re-)extract one memory's graph. Safe to run twice; a deleted memory is a no-op."""
    memory = ShorttermMemory.objects.filter(pk=memory_id).first()
    if memory is None:
        return "gone"
    extraction, error = extract(memory_text(memory))
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
        ).order_by("extraction_attempts", "last_updated").values_list("pk", flat=True)[:limit]
    )
    outcomes = {"done": 0, "failed": 0, "gone": 0}
    for memory_id in ids:
        outcomes[memory_extract_graph(memory_id=memory_id)] += 1
    return outcomes
