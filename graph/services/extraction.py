"""Extracting and storing the graph of shortterm memories.

Inline (``extraction_mode: inline``, the default) a memory's text is extracted before its
write and the graph stored in the transaction of its chunks; in background mode the write
marks the extraction pending and a task extracts it once the write commits. The sweep
retries failures and lost tasks; ``graph_reextract`` redoes a whole worker."""

import logging
import time
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
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
from graph.selectors.graph import entity_dict, relationship_dict, worker_graph_size
from graph.vocabulary import normalize_name, normalize_relation_type, normalize_type
from memoryhub.errors import DomainError
from memoryhub.models import Worker
from tiers.models import ExtractionStatus, ShorttermMemory, Tier
from tiers.selectors.shortterm import shortterm_memory_text

logger = logging.getLogger(__name__)


BATCH_SIZE = 64  # texts per extract_many call


def _extract_one(extractor, text: str) -> tuple[Extraction | None, str]:
    try:
        return extractor.extract(text), ""
    except ExtractionError as exc:
        logger.warning("entity extraction failed: %s", exc)
        return None, str(exc)[:2000]


def extract(text: str) -> tuple[Extraction | None, str]:
    """Run the configured extractor; (None, error) when it fails. Never raises."""
    return _extract_one(get_extractor(), text)


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
    *,
    memory: ShorttermMemory,
    extraction: Extraction,
    confirmed: Extraction | None = None,
    added: bool = False,
) -> tuple[list, list]:
    """Make the memory's shortterm graph what ``extraction`` says, in the caller's
    transaction (the one writing the memory's chunks). Entities and relationships that stay
    keep their ids and first-seen dates (``last_seen`` moves on); ones the text no longer
    yields go; new ones are added. Those that were there already and that ``confirmed``
    (the graph of a section merged into the memory) states again gain confidence.

    Rows an agent edited (``edited``) are the agent's: never deleted, never rewritten
    (only their last-seen dates move when the text states them again), and the entities an
    edited relationship joins stay with it. An entity or relationship renamed or retyped
    by an edit is still the one the text's original statement finds
    (``metadata["extracted_as"]``), so re-extraction does not bring the old version back.

    ``added``: ``extraction`` reads chunks appended to the memory (and the few before them),
    not its whole text: what it states is added or confirmed, and nothing else is deleted."""
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
    stored = list(Entity.objects.filter(source_memory=memory, tier=Tier.SHORTTERM))
    old_entities = {(e.normalized_name, e.type): e for e in stored}
    stored_by_name = {e.normalized_name: e for e in stored}
    renamed = _renamed(stored, old_entities, lambda e, first: tuple(first))
    edited_relations = list(
        Relationship.objects.filter(source_memory=memory, tier=Tier.SHORTTERM, edited=True)
    )
    by_pk = {e.pk: e for e in stored}
    held = {e.pk: e for e in stored if e.edited} | {
        pk: by_pk[pk] for r in edited_relations for pk in (r.from_entity_id, r.to_entity_id)
    }
    by_key: dict[tuple[str, str], Entity] = {}
    by_name: dict[str, Entity] = {}
    restated: dict[int, Entity] = {}  # stored entities the text states again
    for item in extraction.entities:
        normalized = normalize_name(item.name)
        if not normalized:
            continue
        key = (normalized[:300], normalize_type(item.type))
        confidence = _clamp(item.confidence)
        entity = by_key.get(key)
        if entity is not None:
            if not entity.edited:
                entity.confidence = max(entity.confidence, confidence)
            continue
        entity = old_entities.get(key) or renamed.get(key)
        if entity is None and added:  # the name stored under another type: the one stored
            entity = stored_by_name.get(key[0])
        if entity is None:
            entity = _new_entity(memory, item, normalized, key[1], now)
        elif entity.pk not in restated:
            entity.last_seen = now
            if not entity.edited:
                entity.confidence = (
                    _confirm(entity.confidence)
                    if normalized in confirmed_names
                    else max(entity.confidence, confidence)
                )
            restated[entity.pk] = entity
        by_key[key] = entity
        by_name.setdefault(normalized, entity)
    kept = restated | held
    if not added:
        Relationship.objects.filter(source_memory=memory, tier=Tier.SHORTTERM).exclude(
            from_entity__in=list(kept), to_entity__in=list(kept)
        ).delete()
        Entity.objects.filter(source_memory=memory, tier=Tier.SHORTTERM).exclude(
            pk__in=list(kept)
        ).delete()
    Entity.objects.bulk_update(restated.values(), ["last_seen", "confidence"])
    Entity.objects.bulk_create([e for e in by_key.values() if not e.pk])

    stored_relations = list(Relationship.objects.filter(source_memory=memory, tier=Tier.SHORTTERM))
    old_relations = {(r.from_entity_id, r.to_entity_id, r.type): r for r in stored_relations}
    renamed_relations = _renamed(
        stored_relations, old_relations, lambda r, first: (r.from_entity_id, r.to_entity_id, first)
    )
    relations: dict[tuple, Relationship] = {}
    staying: set[int] = set()  # stored relationships the text states again
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
        relation = old_relations.get(key) or renamed_relations.get(key)
        if relation is None:
            relation = _new_relationship(memory, item, source, target, key[2], now)
        elif relation.pk not in staying:
            staying.add(relation.pk)
            relation.last_observed = now
            triple = (source.normalized_name, key[2], target.normalized_name)
            if not relation.edited and triple in confirmed_triples:
                relation.confidence = _confirm(relation.confidence)
        relations[key] = relation
    if not added:
        Relationship.objects.filter(
            pk__in=[r.pk for r in stored_relations if r.pk not in staying and not r.edited]
        ).delete()
    Relationship.objects.bulk_update(
        [r for r in stored_relations if r.pk in staying], ["last_observed", "confidence"]
    )
    Relationship.objects.bulk_create([r for r in relations.values() if not r.pk])
    entities = list({e.pk: e for e in [*by_key.values(), *held.values()]}.values())
    relationships = list({r.pk: r for r in [*edited_relations, *relations.values()]}.values())
    outbox_record(
        entity_ids=[e.pk for e in entities], relationship_ids=[r.pk for r in relationships]
    )
    return entities, relationships


def _renamed(rows: list, by_key: dict, first_key) -> dict:
    """Edited rows by the key the text first gave them, before an agent renamed or retyped
    them (``first_key(row, metadata["extracted_as"])``), where no stored row has that key
    now: an entity's [normalized name, type], a relationship's type."""
    found = {}
    for row in rows:
        first = row.metadata.get("extracted_as") if row.edited else None
        if first is not None and (key := first_key(row, first)) not in by_key:
            found.setdefault(key, row)
    return found


def graph_confirm(*, memory: ShorttermMemory, confirmed: Extraction) -> None:
    """Raise the confidence of the memory's stored entities and relationships that
    ``confirmed`` states again (edited ones excepted), in the caller's transaction. What
    ``graph_store_extraction`` does with ``confirmed``, for when the memory's own
    extraction runs later (background mode)."""
    names = {normalize_name(e.name) for e in confirmed.entities}
    triples = {
        (normalize_name(r.source), normalize_relation_type(r.type), normalize_name(r.target))
        for r in confirmed.relationships
    }
    entities = list(
        Entity.objects.filter(
            source_memory=memory, tier=Tier.SHORTTERM, edited=False, normalized_name__in=names
        )
    )
    for entity in entities:
        entity.confidence = _confirm(entity.confidence)
    relationships = [
        r
        for r in Relationship.objects.filter(
            source_memory=memory, tier=Tier.SHORTTERM, edited=False
        ).select_related("from_entity", "to_entity")
        if (r.from_entity.normalized_name, r.type, r.to_entity.normalized_name) in triples
    ]
    for relationship in relationships:
        relationship.confidence = _confirm(relationship.confidence)
    Entity.objects.bulk_update(entities, ["confidence"])
    Relationship.objects.bulk_update(relationships, ["confidence"])
    outbox_record(
        entity_ids=[e.pk for e in entities], relationship_ids=[r.pk for r in relationships]
    )


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
    relationship differences, ``{"new": [stored rows], "conflicts": [...]}`` each. What it
    adds counts as the agent's (``edited``): re-extracting the memory after its chunks
    change keeps those rows and their ids, which the memorizer goes on to use."""
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
        entity.edited = True  # the agent's addition: a later re-extraction keeps it, and its id
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
        relation.edited = True
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
    added: bool = False,
) -> None:
    """Store a finished extraction, or record the failure for the sweep. In the caller's
    transaction. ``added``: as ``graph_store_extraction``."""
    if extraction is not None:
        graph_store_extraction(
            memory=memory, extraction=extraction, confirmed=confirmed, added=added
        )
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


def _stored_reading(
    *, memory_id: int, text: str, extraction: Extraction | None, error: str, extractor
) -> str:
    """Store the reading of ``text`` under the memory's row lock: "gone" when the memory
    was deleted meanwhile. When its text changed between the reading and the lock, it is
    read again (the lock is never held while extracting); "changed" when it keeps changing,
    as then each writer stores or queues the graph of its own text."""
    for _ in range(3):
        with transaction.atomic():
            locked = ShorttermMemory.objects.select_for_update().filter(pk=memory_id).first()
            if locked is None:
                return "gone"
            if shortterm_memory_text(locked) == text:
                graph_apply_extraction(memory=locked, extraction=extraction, error=error)
                return "done" if extraction is not None else "failed"
        memory = ShorttermMemory.objects.filter(pk=memory_id).first()
        if memory is None:
            return "gone"
        text = shortterm_memory_text(memory)
        extraction, error = _extract_one(extractor, text)
    return "changed"


def _extract_batch(extractor, texts: list[str]) -> list[tuple[Extraction | None, str]]:
    """One ``extract_many`` call (the parser parses the batch in one ``nlp.pipe``); when it
    fails, each text on its own, so that one bad text fails alone."""
    if not texts:
        return []
    try:
        return [(extraction, "") for extraction in extractor.extract_many(texts)]
    except ExtractionError:
        return [_extract_one(extractor, text) for text in texts]


def _extract_memories(*, memory_ids: list[int], extractor) -> dict[str, int]:
    """Extract and store the graphs of these memories, one ``extract_many`` call for all
    of them, then one transaction per memory. Outcome counts."""
    memories = list(ShorttermMemory.objects.filter(pk__in=memory_ids).order_by("pk"))
    outcomes = {"done": 0, "failed": 0, "gone": len(memory_ids) - len(memories)}
    texts = [shortterm_memory_text(memory) for memory in memories]
    for memory, text, (extraction, error) in zip(
        memories, texts, _extract_batch(extractor, texts), strict=True
    ):
        outcome = _stored_reading(
            memory_id=memory.pk, text=text, extraction=extraction, error=error, extractor=extractor
        )
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes


def memory_extract_graph(*, memory_id: int) -> str:
    """(Re-)extract one memory's graph. Safe to run twice; a deleted memory is a no-op."""
    memory = ShorttermMemory.objects.filter(pk=memory_id).first()
    if memory is None:
        return "gone"
    extractor = get_extractor()
    text = shortterm_memory_text(memory)
    extraction, error = _extract_one(extractor, text)
    return _stored_reading(
        memory_id=memory_id, text=text, extraction=extraction, error=error, extractor=extractor
    )


def memory_extraction_defer(
    *, memory: ShorttermMemory, confirmed: Extraction | None = None, enqueue: bool = True
) -> None:
    """Background mode: mark the memory's extraction pending, in the caller's transaction
    (the one writing its chunks), and queue ``graph.tasks.extract_memory_graph`` once that
    commits. The extraction sweep picks up any memory whose task was lost. ``confirmed``
    (a merged section's reading) raises the confidence of what is stored already.
    ``enqueue=False`` leaves the memory for the sweep (``bench_import`` times the write
    path alone this way)."""
    if confirmed is not None:
        graph_confirm(memory=memory, confirmed=confirmed)
    ShorttermMemory.objects.filter(pk=memory.pk).update(
        extraction_status=ExtractionStatus.PENDING, extraction_error="", extraction_attempts=0
    )
    if enqueue:
        memory_id = memory.pk
        transaction.on_commit(lambda: _enqueue_extraction(memory_id), robust=True)


def _enqueue_extraction(memory_id: int) -> None:
    from django_q.tasks import async_task

    async_task("graph.tasks.extract_memory_graph", memory_id)


def extraction_deferred() -> bool:
    """Whether memories are extracted after their commit (``extraction_mode: background``)."""
    return settings.MEMORYHUB_GRAPH["extraction_mode"] == "background"


# A pending memory younger than this has its task queued still: the sweep leaves it to it.
QUEUED_GRACE = timedelta(minutes=5)


def extraction_sweep(
    *, limit: int = 100, grace: timedelta = QUEUED_GRACE, batch_size: int = BATCH_SIZE
) -> dict:
    """Retry memories whose extraction failed (up to the attempt limit), and extract those
    left pending for longer than ``grace`` (a lost task), in batches of ``batch_size``
    through the extractor's ``extract_many``."""
    max_attempts = settings.MEMORYHUB_GRAPH["max_extraction_attempts"]
    ids = list(
        ShorttermMemory.objects.filter(
            Q(extraction_status=ExtractionStatus.FAILED)
            | Q(
                extraction_status=ExtractionStatus.PENDING,
                last_updated__lte=timezone.now() - grace,
            ),
            extraction_attempts__lt=max_attempts,
        )
        .order_by("extraction_attempts", "last_updated")
        .values_list("pk", flat=True)[:limit]
    )
    outcomes = {"done": 0, "failed": 0, "gone": 0}
    if not ids:
        return outcomes
    extractor = get_extractor()
    for start in range(0, len(ids), batch_size):
        for outcome, count in _extract_memories(
            memory_ids=ids[start : start + batch_size], extractor=extractor
        ).items():
            outcomes[outcome] = outcomes.get(outcome, 0) + count
    return outcomes


def graph_reextract(
    *,
    worker: Worker,
    extractor_name: str | None = None,
    batch_size: int = BATCH_SIZE,
    progress: Callable[[int], None] | None = None,
) -> dict:
    """Extract the graph of every shortterm memory of ``worker`` again (after a change of
    extractor), in id order and in batches: one ``extract_many`` call per batch, then one
    transaction per memory (``graph_apply_extraction``, so edited rows stay and the Neo4j
    outbox records every change). Safe to run twice: the same text gives the same rows,
    ids included. A memory the extractor fails on is marked failed (the sweep retries it);
    one deleted meanwhile is skipped. ``progress(n)`` is called after each batch of
    ``n`` memories. Returns the counts and the time taken."""
    if batch_size < 1:
        raise DomainError("batch_size must be at least 1", fields={"batch_size": "at least 1"})
    started = time.perf_counter()
    extractor = get_extractor(extractor_name)
    before = worker_graph_size(worker=worker)
    ids = list(
        ShorttermMemory.objects.filter(worker=worker).order_by("pk").values_list("pk", flat=True)
    )
    outcomes = {"done": 0, "failed": 0, "gone": 0, "changed": 0}
    for start in range(0, len(ids), batch_size):
        batch = ids[start : start + batch_size]
        for outcome, count in _extract_memories(memory_ids=batch, extractor=extractor).items():
            outcomes[outcome] += count
        if progress is not None:
            progress(len(batch))
    after = worker_graph_size(worker=worker)
    return {
        "worker": worker.name,
        "extractor": extractor.name,
        "memories": len(ids),
        "done": outcomes["done"],
        "failed": outcomes["failed"],
        "skipped": outcomes["gone"] + outcomes["changed"],
        "entities_before": before["entities"],
        "entities_after": after["entities"],
        "relationships_before": before["relationships"],
        "relationships_after": after["relationships"],
        "seconds": time.perf_counter() - started,
    }
