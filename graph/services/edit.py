"""The memorizer's ``update_shortterm_memory_entities_relationships``: edit a memory's
entities and relationships by id, and relate its entities, in one transaction. Every row
changed or created here is marked ``edited``, and re-extraction leaves it as it is."""

from django.db import IntegrityError, transaction
from django.utils import timezone

from graph.models import Entity, Relationship
from graph.projection.outbox import outbox_record
from graph.vocabulary import ENTITY_TYPES, normalize_name, normalize_relation_type
from memoryhub.errors import DomainError, NotFoundError
from tiers.models import ShorttermMemory, Tier


def _score(field: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise DomainError(f"{field} must be a number from 0 to 1", fields={field: "must be 0 to 1"})
    return float(value)


def _text(field: str, value, *, allow_blank=False, max_length=None) -> str:
    if not isinstance(value, str) or (not allow_blank and not value.strip()):
        raise DomainError(
            f"{field} must be a non-empty string", fields={field: "must be a non-empty string"}
        )
    if max_length and len(value) > max_length:
        raise DomainError(
            f"{field} is longer than {max_length}",
            fields={field: f"at most {max_length} characters"},
        )
    return value.strip() if not allow_blank else value


def _items(field: str, value) -> list[dict]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise DomainError(
            f"{field} must be a list of objects", fields={field: "must be a list of objects"}
        )
    return value


def _mark_edited(row, extracted_as, now_as) -> None:
    """The agent's from now on: re-extraction keeps the row as it is. A row renamed or
    retyped remembers what the text first called it, so that the text's statement still
    finds it (``graph_store_extraction``)."""
    if extracted_as != now_as and "extracted_as" not in row.metadata:
        row.metadata = {**row.metadata, "extracted_as": extracted_as}
    row.edited = True


@transaction.atomic
def memory_graph_update(
    *, memory: ShorttermMemory, entities=None, relationships=None, new_relationships=None
) -> None:
    entities = _items("entities", entities)
    relationships = _items("relationships", relationships)
    new_relationships = _items("new_relationships", new_relationships)
    if not (entities or relationships or new_relationships):
        raise DomainError(
            "nothing to update",
            fields={"entities": "give entities, relationships or new_relationships"},
        )
    memory = ShorttermMemory.objects.select_for_update().get(pk=memory.pk)
    own_entities = {
        e.pk: e for e in Entity.objects.filter(source_memory=memory, tier=Tier.SHORTTERM)
    }
    own_relationships = {
        r.pk: r for r in Relationship.objects.filter(source_memory=memory, tier=Tier.SHORTTERM)
    }

    def entity_for(field, entity_id) -> Entity:
        if entity_id in own_entities:
            return own_entities[entity_id]
        if (
            isinstance(entity_id, int)
            and Entity.objects.filter(pk=entity_id).exclude(worker_id=memory.worker_id).exists()
        ):
            raise DomainError(
                f"entity {entity_id} belongs to another worker",
                fields={field: "another worker's entity"},
            )
        raise NotFoundError(
            f"entity {entity_id} not found in memory {memory.pk}", fields={field: "not found"}
        )

    for index, item in enumerate(entities):
        where = f"entities[{index}]"
        entity = entity_for(f"{where}.id", item.get("id"))
        extracted_as = [entity.normalized_name, entity.type]
        if "name" in item:
            entity.name = _text(f"{where}.name", item["name"], max_length=300)
            entity.normalized_name = normalize_name(entity.name)[:300]
            if not entity.normalized_name:
                raise DomainError(
                    f"{where}.name has no letters or digits",
                    fields={f"{where}.name": "no letters or digits"},
                )
        if "type" in item:
            if item["type"] not in ENTITY_TYPES:
                raise DomainError(
                    f"{where}.type must be one of {', '.join(ENTITY_TYPES)}",
                    fields={f"{where}.type": "not in the vocabulary"},
                )
            entity.type = item["type"]
        if "description" in item:
            entity.description = _text(
                f"{where}.description", item["description"], allow_blank=True
            )
        if "confidence" in item:
            entity.confidence = _score(f"{where}.confidence", item["confidence"])
        _mark_edited(entity, extracted_as, [entity.normalized_name, entity.type])
        entity.last_seen = timezone.now()
        outbox_record(entity_ids=[entity.pk])
        try:
            with transaction.atomic():
                entity.save()
        except IntegrityError as exc:
            raise DomainError(
                f"{where}: another entity of this memory is already "
                f"{entity.name!r} ({entity.type})",
                fields={f"{where}.name": "duplicates another entity of this memory"},
                code="duplicate",
            ) from exc

    for index, item in enumerate(relationships):
        where = f"relationships[{index}]"
        rel = own_relationships.get(item.get("id"))
        if rel is None:
            raise NotFoundError(
                f"relationship {item.get('id')} not found in memory {memory.pk}",
                fields={f"{where}.id": "not found"},
            )
        extracted_as = rel.type
        if "type" in item:
            rel.type = normalize_relation_type(_text(f"{where}.type", item["type"], max_length=64))
        if "description" in item:
            rel.description = _text(f"{where}.description", item["description"], allow_blank=True)
        for score in ("confidence", "strength"):
            if score in item:
                setattr(rel, score, _score(f"{where}.{score}", item[score]))
        _mark_edited(rel, extracted_as, rel.type)
        rel.last_observed = timezone.now()
        outbox_record(relationship_ids=[rel.pk])
        try:
            with transaction.atomic():
                rel.save()
        except IntegrityError as exc:
            raise DomainError(
                f"{where}: the same relationship already exists",
                fields={f"{where}.type": "duplicate"},
                code="duplicate",
            ) from exc

    now = timezone.now()
    for index, item in enumerate(new_relationships):
        where = f"new_relationships[{index}]"
        source = entity_for(f"{where}.from_id", item.get("from_id"))
        target = entity_for(f"{where}.to_id", item.get("to_id"))
        if source.pk == target.pk:
            raise DomainError(
                f"{where}: an entity cannot be related to itself",
                fields={f"{where}.to_id": "self-loop"},
                code="self_loop",
            )
        rel = Relationship(
            tier=Tier.SHORTTERM,
            worker_id=memory.worker_id,
            source_memory=memory,
            from_entity=source,
            to_entity=target,
            type=normalize_relation_type(_text(f"{where}.type", item.get("type"), max_length=64)),
            description=_text(
                f"{where}.description", item.get("description", ""), allow_blank=True
            ),
            confidence=_score(f"{where}.confidence", item.get("confidence", 0.8)),
            strength=_score(f"{where}.strength", item.get("strength", 0.5)),
            first_observed=now,
            last_observed=now,
            edited=True,
        )
        try:
            with transaction.atomic():
                rel.save()
        except IntegrityError as exc:
            raise DomainError(
                f"{where}: the same relationship already exists",
                fields={where: "duplicate"},
                code="duplicate",
            ) from exc
        outbox_record(relationship_ids=[rel.pk])
