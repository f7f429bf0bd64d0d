"""The Neo4j projection. No Neo4j server runs here: the outbox is tested against an
unreachable bolt URL (nothing lost, retried with backoff); the tests that need a real
server run when NEO4J_URL is set in the environment and are skipped otherwise."""

import os
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from graph.models import Entity, GraphOutbox, GraphProjectionState, Relationship
from graph.projection.sync import graph_outbox_drain
from tiers.services.shortterm import shortterm_memory_create, shortterm_memory_delete

pytestmark = pytest.mark.django_db

TEXT = "Alice Chen owns the billing service. The billing service uses PostgreSQL."
REAL_NEO4J = os.environ.get("NEO4J_URL")


def test_without_neo4j_nothing_is_recorded_or_connected(worker, settings):
    settings.NEO4J_URL = None
    shortterm_memory_create(worker=worker, title="t", chunks=[{"content": TEXT}])
    assert Entity.objects.exists() and not GraphOutbox.objects.exists()
    assert graph_outbox_drain()["skipped"] == "NEO4J_URL is not set"
    with pytest.raises(CommandError, match="NEO4J_URL is not set"):
        call_command("graph_resync")


def test_changes_are_recorded_in_the_same_transaction(worker, settings):
    settings.NEO4J_URL = "bolt://neo4j:secret@127.0.0.1:9"
    memory = shortterm_memory_create(worker=worker, title="t", chunks=[{"content": TEXT}])
    entity_ids = set(Entity.objects.values_list("pk", flat=True))
    recorded = set(GraphOutbox.objects.filter(kind="entity").values_list("object_id", flat=True))
    assert recorded == entity_ids
    assert GraphOutbox.objects.filter(kind="relationship").count() == Relationship.objects.count()
    shortterm_memory_delete(memory=memory)
    assert (
        set(GraphOutbox.objects.filter(kind="entity").values_list("object_id", flat=True))
        == entity_ids
    )
    assert GraphOutbox.objects.filter(kind="entity").count() == 2 * len(
        entity_ids
    )  # created, then deleted


def test_an_unreachable_neo4j_keeps_every_row_and_backs_off(worker, settings):
    settings.NEO4J_URL = "bolt://neo4j:secret@127.0.0.1:9"
    shortterm_memory_create(worker=worker, title="t", chunks=[{"content": TEXT}])
    pending = GraphOutbox.objects.count()
    first = graph_outbox_drain()
    assert first["failed"] == pending and first["pending"] == pending
    rows = list(GraphOutbox.objects.all())
    assert all(
        r.attempts == 1 and r.next_attempt_at > timezone.now() and r.last_error for r in rows
    )
    assert graph_outbox_drain() == {
        "projected": 0,
        "pending": pending,
    }  # not due yet: nothing retried
    GraphOutbox.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=1))
    graph_outbox_drain()
    assert GraphOutbox.objects.count() == pending and set(
        GraphOutbox.objects.values_list("attempts", flat=True)
    ) == {2}
    state = GraphProjectionState.objects.get()
    assert state.last_error and state.last_success_at is None


def test_health_reports_the_outbox(worker, settings, anon_client):
    settings.NEO4J_URL = "bolt://neo4j:secret@127.0.0.1:9"
    shortterm_memory_create(worker=worker, title="t", chunks=[{"content": TEXT}])
    neo4j = anon_client.get("/api/v1/health").json()["neo4j"]
    assert neo4j["configured"] is True and neo4j["outbox_depth"] == GraphOutbox.objects.count()
    assert neo4j["last_success"] is None


@pytest.mark.skipif(not REAL_NEO4J, reason="NEO4J_URL is not set: no Neo4j server to project into")
def test_drain_and_resync_against_a_real_neo4j(worker, settings):
    from graph.projection import nodes as neo

    settings.NEO4J_URL = REAL_NEO4J
    neo.install_schema()
    neo.connect()
    neo.wipe()
    shortterm_memory_create(worker=worker, title="t", chunks=[{"content": TEXT}])
    graph_outbox_drain()
    assert neo.counts() == {
        "entities": Entity.objects.count(),
        "relationships": Relationship.objects.count(),
    }
    neo.wipe()
    call_command("graph_resync")
    assert neo.counts() == {
        "entities": Entity.objects.count(),
        "relationships": Relationship.objects.count(),
    }
