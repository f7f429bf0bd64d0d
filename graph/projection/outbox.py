"""Record graph changes for the Neo4j projection (only when NEO4J_URL is set)."""

from django.conf import settings

from graph.models import Entity, GraphOutbox, Relationship


def projection_enabled() -> bool:
    return bool(settings.NEO4J_URL)


def outbox_record(*, entity_ids=(), relationship_ids=()) -> None:
    """Call inside the transaction that changes these rows (before deleting them)."""
    if not projection_enabled():
        return
    rows = [GraphOutbox(kind=GraphOutbox.Kind.ENTITY, object_id=i) for i in entity_ids]
    rows += [GraphOutbox(kind=GraphOutbox.Kind.RELATIONSHIP, object_id=i) for i in relationship_ids]
    if rows:
        GraphOutbox.objects.bulk_create(rows)


def outbox_record_memory(*, memory_id: int) -> None:
    """Everything of one shortterm memory (before it is deleted or re-extracted)."""
    if not projection_enabled():
        return
    outbox_record(
        entity_ids=list(
            Entity.objects.filter(source_memory_id=memory_id).values_list("pk", flat=True)
        ),
        relationship_ids=list(
            Relationship.objects.filter(source_memory_id=memory_id).values_list("pk", flat=True)
        ),
    )


def outbox_record_worker(*, worker_id: int) -> None:
    """Everything of one worker (after an import: the projection learns of it)."""
    if not projection_enabled():
        return
    outbox_record(
        entity_ids=list(Entity.objects.filter(worker_id=worker_id).values_list("pk", flat=True)),
        relationship_ids=list(
            Relationship.objects.filter(worker_id=worker_id).values_list("pk", flat=True)
        ),
    )
