import json
import os
from datetime import UTC

import pytest
from werkzeug import Response

from graph.models import Entity, Relationship
from graph.selectors.graph import entity_search, neighbourhood, relationship_history, shortest_path
from graph.services.extraction import extraction_sweep
from tests.factories import WorkerFactory
from tests.helpers import assert_error
from tiers.models import ExtractionStatus, Tier
from tiers.services.shortterm import (
    shortterm_chunks_update,
    shortterm_memory_create,
    shortterm_memory_delete,
)

pytestmark = pytest.mark.django_db

TEXT = (
    "Alice Chen owns the billing service. The billing service uses PostgreSQL and Redis. "
    "Redis runs on Kubernetes. Deepak Rao works for Acme Corp."
)


REAL_NEO4J = os.environ.get("NEO4J_URL")


@pytest.fixture(params=["postgres", "neo4j"])
def backend(request, settings):
    """Every selector test runs over both backends; the Neo4j run needs a server."""
    if request.param == "neo4j":
        if not REAL_NEO4J:
            pytest.skip("NEO4J_URL is not set: no Neo4j server for the neo4j backend")
        from graph.projection import nodes as neo

        settings.NEO4J_URL = REAL_NEO4J
        neo.install_schema()
        neo.wipe()
    else:
        settings.NEO4J_URL = None
    return request.param


@pytest.fixture
def memory(worker, backend):
    created = shortterm_memory_create(worker=worker, title="Billing", chunks=[{"content": TEXT}])
    if backend == "neo4j":
        from graph.projection.sync import graph_outbox_drain

        graph_outbox_drain()
    return created


def _entity(memory, name):
    return Entity.objects.get(source_memory=memory, name=name)


def test_creating_a_memory_stores_its_graph_in_the_same_transaction(memory):
    assert memory.__class__.objects.get(pk=memory.pk).extraction_status == ExtractionStatus.DONE
    names = set(Entity.objects.filter(source_memory=memory).values_list("name", "type"))
    assert {
        ("Alice Chen", "person"),
        ("billing service", "component"),
        ("PostgreSQL", "technology"),
    } <= names
    triples = {
        (r.from_entity.name, r.type, r.to_entity.name)
        for r in Relationship.objects.filter(source_memory=memory)
    }
    assert ("billing service", "USES", "Redis") in triples and (
        "Alice Chen",
        "OWNS",
        "billing service",
    ) in triples


def test_updating_chunks_re_extracts_and_deleting_removes_the_graph(memory):
    chunk = memory.chunks.get()
    shortterm_chunks_update(
        memory=memory,
        updates=[{"chunk_id": chunk.pk, "new_content": "Bob Martins leads Project Atlas."}],
    )
    assert set(Entity.objects.filter(source_memory=memory).values_list("name", flat=True)) >= {
        "Bob Martins",
        "Project Atlas",
    }
    assert not Entity.objects.filter(source_memory=memory, name="Alice Chen").exists()
    shortterm_memory_delete(memory=memory)
    assert not Entity.objects.exists() and not Relationship.objects.exists()


def test_a_malformed_llm_answer_keeps_the_memory_and_the_sweep_retries(
    settings, httpserver, worker
):
    settings.MEMORYHUB_GRAPH = {**settings.MEMORYHUB_GRAPH, "extractor": "llm"}
    settings.MEMORYHUB_LLM = {
        "url": httpserver.url_for("/v1"),
        "model": "m",
        "api_key": "",
        "timeout": 5,
    }
    answers = [
        "{not json",
        json.dumps(
            {
                "entities": [
                    {"name": "Alice", "type": "person", "description": "", "confidence": 0.9}
                ],
                "relationships": [],
            }
        ),
    ]

    def handler(request):
        content = answers.pop(0)
        return Response(
            json.dumps({"choices": [{"message": {"content": content}}]}),
            content_type="application/json",
        )

    httpserver.expect_request("/v1/chat/completions").respond_with_handler(handler)
    memory = shortterm_memory_create(
        worker=worker, title="t", chunks=[{"content": "Alice was here."}]
    )
    memory.refresh_from_db()
    assert (
        memory.extraction_status == ExtractionStatus.FAILED
        and "not JSON" in memory.extraction_error
    )
    assert memory.chunks.count() == 1  # never a lost memory
    assert extraction_sweep() == {"done": 1, "failed": 0, "gone": 0}
    memory.refresh_from_db()
    assert memory.extraction_status == ExtractionStatus.DONE
    assert list(Entity.objects.filter(source_memory=memory).values_list("name", flat=True)) == [
        "Alice"
    ]
    assert extraction_sweep() == {"done": 0, "failed": 0, "gone": 0}  # nothing left: idempotent


def test_neighbourhood_path_history_and_prefix_search(worker, memory):
    alice, redis, kube = (
        _entity(memory, "Alice Chen"),
        _entity(memory, "Redis"),
        _entity(memory, "Kubernetes"),
    )
    near = neighbourhood(worker=worker, entity_id=alice.pk, hops=1)
    assert {e["name"] for e in near["entities"]} == {"Alice Chen", "billing service"}
    far = neighbourhood(worker=worker, entity_id=alice.pk, hops=3)
    assert {e["name"]: e["distance"] for e in far["entities"]}["Kubernetes"] == 3
    assert all(r["source_memory_id"] == memory.pk for r in far["relationships"])
    path = shortest_path(worker=worker, from_id=alice.pk, to_id=kube.pk)
    assert path["found"] and [e["name"] for e in path["entities"]] == [
        "Alice Chen",
        "billing service",
        "Redis",
        "Kubernetes",
    ]
    assert [r["type"] for r in path["relationships"]][:2] == ["OWNS", "USES"]
    deepak = _entity(memory, "Deepak Rao")
    assert shortest_path(worker=worker, from_id=alice.pk, to_id=deepak.pk)["found"] is False
    history = relationship_history(worker=worker, from_id=redis.pk, to_id=kube.pk)
    assert [h["type"] for h in history] == [
        r.type for r in Relationship.objects.filter(from_entity=redis, to_entity=kube)
    ]
    assert "billing service" in [e["name"] for e in entity_search(worker=worker, prefix="bill")]
    assert [e["name"] for e in entity_search(worker=worker, prefix="kube")] == ["Kubernetes"]


def test_longterm_relationships_keep_one_version_per_start_date(worker, memory):
    from datetime import datetime

    from django.db import IntegrityError, transaction

    now = datetime(2026, 1, 1, tzinfo=UTC)
    a = Entity.objects.create(
        tier=Tier.LONGTERM,
        worker=worker,
        name="A",
        normalized_name="a",
        type="concept",
        first_seen=now,
        last_seen=now,
    )
    b = Entity.objects.create(
        tier=Tier.LONGTERM,
        worker=worker,
        name="B",
        normalized_name="b",
        type="concept",
        first_seen=now,
        last_seen=now,
    )
    Relationship.objects.create(
        tier=Tier.LONGTERM, worker=worker, from_entity=a, to_entity=b, type="USES", start_date=now
    )
    later = datetime(2026, 6, 1, tzinfo=UTC)
    Relationship.objects.create(
        tier=Tier.LONGTERM, worker=worker, from_entity=a, to_entity=b, type="USES", start_date=later
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Relationship.objects.create(
            tier=Tier.LONGTERM,
            worker=worker,
            from_entity=a,
            to_entity=b,
            type="USES",
            start_date=now,
        )
    assert [
        h["start_date"] for h in relationship_history(worker=worker, from_id=a.pk, to_id=b.pk)
    ] == [now, later]


# --- API ---------------------------------------------------------------------------------


def test_the_memory_and_search_results_carry_the_graph(owner_client, worker, memory):
    detail = owner_client.get(f"/api/v1/workers/{worker.pk}/shortterm/{memory.pk}/").json()
    assert {e["name"] for e in detail["graph"]["entities"]} >= {"Alice Chen", "Redis"}
    second = shortterm_memory_create(
        worker=worker,
        title="Other",
        chunks=[
            {"content": "Grace Okafor leads Project Atlas."},
            {"content": "The billing service uses Redis."},
        ],
    )
    hits = owner_client.post(
        f"/api/v1/workers/{worker.pk}/search/shortterm",
        {"query": "billing service Redis"},
        format="json",
    ).json()["results"]
    by_chunk = {h["chunk_id"]: h["graph"] for h in hits}
    chunk = second.chunks.get(chunk_order=1)
    assert {e["name"] for e in by_chunk[chunk.pk]["entities"]} == {"billing service", "Redis"}
    assert [r["type"] for r in by_chunk[chunk.pk]["relationships"]] == ["USES"]
    assert all(e["source_memory_id"] == second.pk for e in by_chunk[chunk.pk]["entities"])


def test_the_memorizer_updates_entities_and_relationships(owner_client, worker, memory):
    alice, redis = _entity(memory, "Alice Chen"), _entity(memory, "Redis")
    rel = Relationship.objects.filter(source_memory=memory).first()
    response = owner_client.patch(
        f"/api/v1/workers/{worker.pk}/shortterm/{memory.pk}/graph",
        {
            "entities": [{"id": alice.pk, "description": "billing owner", "confidence": 0.95}],
            "relationships": [{"id": rel.pk, "strength": 0.9, "type": "strongly uses"}],
            "new_relationships": [{"from_id": alice.pk, "to_id": redis.pk, "type": "administers"}],
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    alice.refresh_from_db()
    rel.refresh_from_db()
    assert (alice.description, alice.confidence) == ("billing owner", 0.95)
    assert (rel.strength, rel.type) == (0.9, "STRONGLY_USES")
    assert Relationship.objects.filter(
        from_entity=alice, to_entity=redis, type="ADMINISTERS"
    ).exists()


def test_bad_graph_edits_are_refused_and_change_nothing(owner_client, worker, memory):
    alice = _entity(memory, "Alice Chen")
    url = f"/api/v1/workers/{worker.pk}/shortterm/{memory.pk}/graph"
    other_memory = shortterm_memory_create(
        worker=WorkerFactory(), title="x", chunks=[{"content": "Bob Martins leads Project Atlas."}]
    )
    foreign = Entity.objects.filter(source_memory=other_memory).first()
    before = Relationship.objects.count()
    cases = [
        (
            {"new_relationships": [{"from_id": alice.pk, "to_id": foreign.pk, "type": "KNOWS"}]},
            400,
            "new_relationships[0].to_id",
        ),
        (
            {"new_relationships": [{"from_id": alice.pk, "to_id": alice.pk, "type": "KNOWS"}]},
            400,
            "new_relationships[0].to_id",
        ),
        ({"entities": [{"id": 987654, "name": "x"}]}, 404, "entities[0].id"),
        ({"relationships": [{"id": 987654, "strength": 0.1}]}, 404, "relationships[0].id"),
        ({"entities": [{"id": alice.pk, "type": "wizard"}]}, 400, "entities[0].type"),
        ({"entities": [{"id": alice.pk, "confidence": 3}]}, 400, "entities[0].confidence"),
        (
            {
                "entities": [{"id": alice.pk, "description": "changed"}],
                "relationships": [{"id": 987654}],
            },
            404,
            None,
        ),
        ({}, 400, "entities"),
    ]
    for payload, status, field in cases:
        assert_error(owner_client.patch(url, payload, format="json"), status, None, field)
    alice.refresh_from_db()
    assert alice.description != "changed" and Relationship.objects.count() == before


def test_graph_endpoints_are_isolated(owner_client, other_client, anon_client, worker, memory):
    alice, kube = _entity(memory, "Alice Chen"), _entity(memory, "Kubernetes")
    base = f"/api/v1/workers/{worker.pk}"
    urls = [
        f"{base}/shortterm/{memory.pk}/graph",
        f"{base}/entities/?prefix=al",
        f"{base}/entities/{alice.pk}/",
        f"{base}/entities/{alice.pk}/neighbourhood?hops=2",
        f"{base}/graph/path?from={alice.pk}&to={kube.pk}",
        f"{base}/graph/history?from={alice.pk}&to={kube.pk}",
    ]
    for url in urls:
        assert owner_client.get(url).status_code == 200, url
        assert_error(other_client.get(url), 404, "not_found")
        assert_error(anon_client.get(url), 401)


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("entities/?prefix=", "prefix"),
        ("entities/?prefix=a&limit=0", "limit"),
        ("graph/path?from=1", "to"),
        ("graph/path?from=x&to=2", "from"),
    ],
)
def test_bad_graph_queries_are_400(owner_client, worker, query, field):
    assert_error(owner_client.get(f"/api/v1/workers/{worker.pk}/{query}"), 400, None, field)


def test_hops_are_limited(owner_client, worker, memory):
    alice = _entity(memory, "Alice Chen")
    assert_error(
        owner_client.get(f"/api/v1/workers/{worker.pk}/entities/{alice.pk}/neighbourhood?hops=4"),
        400,
        None,
        "hops",
    )


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_an_unreachable_neo4j_falls_back_to_postgres(worker, memory, settings):
    alice = _entity(memory, "Alice Chen")
    expected = neighbourhood(worker=worker, entity_id=alice.pk, hops=2)
    settings.NEO4J_URL = "bolt://neo4j:secret@127.0.0.1:9"
    assert neighbourhood(worker=worker, entity_id=alice.pk, hops=2) == expected
