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


def graph_store_extraction(*, memory: ShorttermMemory, extraction: Extraction) -> tuple[list, list]:
    """Replace the memory's shortterm entities and relationships with ``extraction``.
    Runs inside the caller's transaction (the one writing the memory's chunks)."""
    outbox_record_memory(memory_id=memory.pk)  # the old graph leaves the projection
    Relationship.objects.filter(source_memory=memory, tier=Tier.SHORTTERM).delete()
    Entity.objects.filter(source_memory=memory, tier=Tier.SHORTTERM).delete()
    now = timezone.now()
    by_key: dict[tuple[str, str], Entity] = {}
    by_name: dict[str, Entity] = {}
    for item in extraction.entities:
        normalized = normalize_name(item.name)
        if not normalized:
            continue
        key = (normalized, normalize_type(item.type))
        if key in by_key:
            existing = by_key[key]
            existing.confidence = max(existing.confidence, item.confidence)
            continue
        entity = Entity(
            tier=Tier.SHORTTERM, worker_id=memory.worker_id, source_memory=memory, name=item.name[:300],
            normalized_name=normalized[:300], type=key[1], description=item.description,
            confidence=min(1.0, max(0.0, item.confidence)), first_seen=now, last_seen=now,
        )
        by_key[key] = entity
        by_name.setdefault(normalized, entity)
    entities = Entity.objects.bulk_create(by_key.values())
    relations: dict[tuple, Relationship] = {}
    for item in extraction.relationships:
        source, target = by_name.get(normalize_name(item.source)), by_name.get(normalize_name(item.target))
        if source is None or target is None or source is target:
            continue  # a relationship needs two distinct extracted entities
        key = (source.pk, target.pk, normalize_relation_type(item.type))
        if key in relations:
            continue
        relations[key] = Relationship(
            tier=Tier.SHORTTERM, worker_id=memory.worker_id, source_memory=memory, from_entity=source,
            to_entity=target, type=key[2], description=item.description,
            confidence=min(1.0, max(0.0, item.confidence)), strength=min(1.0, max(0.0, item.strength)),
            first_observed=now, last_observed=now,
        )
    relationships = Relationship.objects.bulk_create(relations.values())
    outbox_record(entity_ids=[e.pk for e in entities], relationship_ids=[r.pk for r in relationships])
    return entities, relationships


def graph_apply_extraction(*, memory: ShorttermMemory, extraction: Extraction | None, error: str) -> None:
    """Store a finished extraction, or record the failure for the sweep. In the caller's
    transaction."""
    if extraction is not None:
        graph_store_extraction(memory=memory, extraction=extraction)
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
