"""Neo4j unreachable (no server here: NEO4J_URL points at a closed port). Agents' writes
succeed, every graph change waits in the outbox, the drain task fails with a growing
backoff and records the error, and nothing is lost. Neo4j coming back (the outbox
drained into a real server, ``graph_resync``) is covered by the Neo4j-backed tests in
tests/graph, which run when NEO4J_URL names a server."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from graph.models import Entity, GraphOutbox, GraphProjectionState, Relationship
from graph.tasks import drain_graph_outbox
from tests.faults.reconcile import reconcile
from tests.tiers.test_shortterm_api import base

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

NOTES = [
    "Alice Chen owns the billing service. The billing service uses PostgreSQL.",
    "Ben Carter leads the search team in Berlin. The search team uses Kafka.",
    "Lina Haddad maintains the ledger-api. The ledger-api runs on Kubernetes.",
]


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when the block ends


def test_writes_succeed_and_the_outbox_keeps_everything_while_neo4j_is_down(
    owner_client, worker, settings, anon_client
):
    settings.NEO4J_URL = f"bolt://neo4j:secret@127.0.0.1:{_closed_port()}"
    depths = []
    for n, text in enumerate(NOTES):
        answer = owner_client.post(base(worker), {"title": f"n{n}", "content": text}, format="json")
        assert answer.status_code == 201, answer.content
        depths.append(GraphOutbox.objects.count())
        first = drain_graph_outbox()
        assert first["projected"] == 0 and first["failed"] and "error" in first
    assert depths == sorted(depths) and depths[0] > 0  # the outbox only grows

    entity_ids = set(Entity.objects.filter(worker=worker).values_list("pk", flat=True))
    rel_ids = set(Relationship.objects.filter(worker=worker).values_list("pk", flat=True))
    assert entity_ids and rel_ids
    waiting = GraphOutbox.objects.all()
    assert set(waiting.filter(kind="entity").values_list("object_id", flat=True)) == entity_ids
    assert set(waiting.filter(kind="relationship").values_list("object_id", flat=True)) == rel_ids

    # Backoff: nothing is retried before its time, then the wait doubles.
    assert drain_graph_outbox() == {"projected": 0, "pending": waiting.count()}
    GraphOutbox.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=1))
    drain_graph_outbox()
    # Each row was tried once after its write (the older ones were not due then), then
    # once more: its next try waits 2^2 s.
    assert set(waiting.values_list("attempts", flat=True)) == {2}
    assert all(r.last_error for r in waiting)
    assert min(r.next_attempt_at for r in waiting) - timezone.now() > timedelta(seconds=3)

    state = GraphProjectionState.objects.get()
    assert state.last_error and state.last_success_at is None
    health = anon_client.get("/api/v1/health").json()["neo4j"]
    assert health["outbox_depth"] == waiting.count() and health["last_error"]
    with connection.cursor() as cursor:
        counts = reconcile(cursor, worker.pk, memories=len(NOTES))
    assert (counts["entities"], counts["relationships"]) == (len(entity_ids), len(rel_ids))
