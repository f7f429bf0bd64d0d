"""The memorizer's ``auto_resolve``: compare an active memory with a candidate shortterm
memory, add the active memory's new entities and relationships to the shortterm memory's
graph, and report what differs."""

from django.db import transaction
from django.utils import timezone

from graph.extraction import get_extractor
from graph.extraction.base import ExtractionError
from graph.models import Entity, Relationship
from graph.selectors.graph import entity_dict, relationship_dict
from graph.services.outbox import outbox_record
from graph.vocabulary import normalize_name, normalize_relation_type, normalize_type
from memoryhub.errors import DomainError
from memoryhub.providers.embeddings import get_embedder, vector_literal
from tiers.conflict_check import FUNCTIONAL, OPPOSITE
from tiers.models import ActiveMemory, ShorttermMemory, Tier
from tiers.selectors.active import active_memory_sections_view
from tiers.selectors.shortterm import nearest_chunks


def _active_content(memory: ActiveMemory, section: str | None) -> str:
    rows = active_memory_sections_view(memory)
    if section is not None:
        rows = [r for r in rows if section in (r["id"], r["name"])]
        if not rows:
            raise DomainError(f"no section {section!r} in this active memory", fields={"section": "unknown section"})
    return "\n\n".join(f"{r['name']}: {r['content']}" for r in rows if r["content"].strip())


def auto_resolve(*, active: ActiveMemory, shortterm: ShorttermMemory, section: str | None = None,
                 limit: int = 5) -> dict:
    if active.worker_id != shortterm.worker_id:
        raise DomainError("the memories belong to different workers", fields={"shortterm_memory_id": "other worker"})
    content = _active_content(active, section)
    if not content:
        raise DomainError("the active memory has no content to compare", fields={"section": "empty"})
    try:
        extraction = get_extractor().extract(content)
    except ExtractionError as exc:
        raise DomainError(f"entity extraction failed: {exc}", code="extraction_failed") from exc
    vector = vector_literal(get_embedder().embed_documents([content])[0])
    similar = [{key: c[key] for key in ("chunk_id", "chunk_order", "content", "similarity")}
               for c in nearest_chunks(vector=vector, memory_id=shortterm.pk, limit=limit)]

    with transaction.atomic():
        ShorttermMemory.objects.select_for_update().get(pk=shortterm.pk)
        now = timezone.now()
        existing = {e.normalized_name: e for e in Entity.objects.filter(source_memory=shortterm, tier=Tier.SHORTTERM)}
        new_entities, type_conflicts, by_name = [], [], dict(existing)
        for item in extraction.entities:
            name, kind = normalize_name(item.name), normalize_type(item.type)
            if not name:
                continue
            if name in by_name:
                known = by_name[name]
                if known.type != kind and "concept" not in (known.type, kind):
                    type_conflicts.append({"entity": entity_dict(known), "incoming_type": kind})
                continue
            entity = Entity.objects.create(
                tier=Tier.SHORTTERM, worker_id=shortterm.worker_id, source_memory=shortterm, name=item.name[:300],
                normalized_name=name[:300], type=kind, description=item.description, confidence=item.confidence,
                first_seen=now, last_seen=now,
            )
            by_name[name] = entity
            new_entities.append(entity)
        triples = {(r.from_entity_id, r.type, r.to_entity_id): r
                   for r in Relationship.objects.filter(source_memory=shortterm, tier=Tier.SHORTTERM)}
        functional = {(f, t): (to, r) for (f, t, to), r in triples.items() if t in FUNCTIONAL}
        new_rels, rel_conflicts = [], []
        for item in extraction.relationships:
            source, target = by_name.get(normalize_name(item.source)), by_name.get(normalize_name(item.target))
            if source is None or target is None or source.pk == target.pk:
                continue
            kind = normalize_relation_type(item.type)
            if (source.pk, kind, target.pk) in triples:
                continue
            if kind in FUNCTIONAL and (source.pk, kind) in functional:
                _, rel = functional[(source.pk, kind)]
                rel_conflicts.append({"existing": relationship_dict(rel), "incoming": {
                    "from": item.source, "type": kind, "to": item.target}, "reason": "functional_relationship_changed"})
                continue
            opposite = triples.get((source.pk, OPPOSITE.get(kind), target.pk))
            if opposite is not None:
                rel_conflicts.append({"existing": relationship_dict(opposite), "incoming": {
                    "from": item.source, "type": kind, "to": item.target}, "reason": "negation_flip"})
                continue
            rel = Relationship.objects.create(
                tier=Tier.SHORTTERM, worker_id=shortterm.worker_id, source_memory=shortterm, from_entity=source,
                to_entity=target, type=kind, description=item.description, confidence=item.confidence,
                strength=item.strength, first_observed=now, last_observed=now,
            )
            triples[(source.pk, kind, target.pk)] = rel
            new_rels.append(rel)
        outbox_record(entity_ids=[e.pk for e in new_entities], relationship_ids=[r.pk for r in new_rels])
    return {
        "active_content": content,
        "similar_chunks": similar,
        "entity_differences": {"new": [entity_dict(e) for e in new_entities], "conflicts": type_conflicts},
        "relationship_differences": {"new": [relationship_dict(r) for r in new_rels], "conflicts": rel_conflicts},
    }
