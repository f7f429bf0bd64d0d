"""The longterm tier and usage signals through the HTTP API: events, promotion, versions,
as-of search, sweeps, and isolation between workers."""

from datetime import timedelta

import pytest
from django.utils import timezone

from consolidation.services.shortterm_to_longterm import promotion_check
from tiers.models import LongtermChunk, MemoryEvent, MemoryUsage
from tiers.services.shortterm import shortterm_chunks_update, shortterm_memory_create

pytestmark = pytest.mark.django_db


def _base(worker) -> str:
    return f"/api/v1/workers/{worker.pk}"


def _two_versions(worker):
    """A memory promoted twice: Postgres 15 two days ago, MySQL 8 yesterday."""
    memory = shortterm_memory_create(
        worker=worker, title="Billing", content="The billing service runs on Postgres 15."
    )
    first = timezone.now() - timedelta(days=2)
    promotion_check(memory=memory, now=first, manual=True)
    chunk = memory.chunks.get()
    shortterm_chunks_update(
        memory=memory,
        updates=[{"chunk_id": chunk.pk, "new_content": "The billing service runs on MySQL 8."}],
    )
    promotion_check(memory=memory, now=first + timedelta(days=1), manual=True)
    return memory, first


def test_an_agent_records_usage_events_and_reads_the_summary(worker, owner_client):
    memory = shortterm_memory_create(worker=worker, title="Prefs", content="I prefer tea.")
    url = f"{_base(worker)}/shortterm/{memory.pk}/events"
    for body in (
        {"kind": "access", "session_id": "chat-1"},
        {"kind": "confirm"},
        {"kind": "mark_important", "importance": 8},
    ):
        response = owner_client.post(url, body, format="json")
        assert response.status_code == 201, response.json()
    assert response.json()["kind"] == "mark_important"
    assert response.json()["actor"].startswith("token:")
    data = owner_client.get(url).json()
    assert data["usage"]["access_count"] == 1 and data["usage"]["sessions"] == ["chat-1"]
    assert data["usage"]["importance"] == 8.0 and data["usage"]["reinforcement_count"] == 1
    assert [e["kind"] for e in data["events"]] == ["mark_important", "confirm", "access"]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"kind": "love"}, "kind"),
        ({}, "kind"),
        ({"kind": "access", "session_id": ["x"]}, "session_id"),
        ({"kind": "mark_important", "importance": "high"}, "importance"),
        ({"kind": "access", "chunk_id": "one"}, "chunk_id"),
    ],
)
def test_bad_events_are_400_naming_the_field(worker, owner_client, body, field):
    memory = shortterm_memory_create(worker=worker, title="Prefs", content="I prefer tea.")
    response = owner_client.post(
        f"{_base(worker)}/shortterm/{memory.pk}/events", body, format="json"
    )
    assert response.status_code == 400
    assert field in response.json()["fields"]
    assert not MemoryEvent.objects.exists()


def test_an_event_is_idempotent_with_a_key(worker, owner_client):
    memory = shortterm_memory_create(worker=worker, title="Prefs", content="I prefer tea.")
    url = f"{_base(worker)}/shortterm/{memory.pk}/events"
    for _ in range(2):
        response = owner_client.post(
            url, {"kind": "confirm"}, format="json", HTTP_IDEMPOTENCY_KEY="ev-1"
        )
        assert response.status_code == 201
    assert MemoryUsage.objects.get(memory=memory).confirmations == 1


def test_search_hits_record_accesses_unless_switched_off(worker, owner_client, settings):
    memory = shortterm_memory_create(worker=worker, title="Prefs", content="Ana prefers tea.")
    url = f"{_base(worker)}/search/shortterm"
    response = owner_client.post(
        url, {"query": "tea", "mode": "bm25", "session_id": "s-7"}, format="json"
    )
    assert response.status_code == 200 and response.json()["results"]
    usage = MemoryUsage.objects.get(memory=memory)
    assert usage.access_count == 1 and usage.sessions == ["s-7"]
    owner_client.post(url, {"query": "tea", "mode": "bm25", "record_access": False}, format="json")
    settings.MEMORYHUB_PROMOTION = {**settings.MEMORYHUB_PROMOTION, "record_search_access": False}
    owner_client.post(url, {"query": "tea", "mode": "bm25"}, format="json")
    assert MemoryUsage.objects.get(memory=memory).access_count == 1


def test_promotion_state_and_a_manual_request(worker, owner_client):
    memory = shortterm_memory_create(worker=worker, title="Prefs", content="I prefer tea.")
    url = f"{_base(worker)}/shortterm/{memory.pk}/promotion"
    assert owner_client.get(url).status_code == 404  # not scored yet
    response = owner_client.post(url)
    assert response.status_code == 200, response.json()
    assert response.json()["promoted"] and response.json()["decided_by"] == "manual"
    assert len(response.json()["versions_created"]) == 1
    state = owner_client.get(url).json()
    assert state["threshold"] == 7.0 and state["decided_by"] == "manual"
    assert set(state["breakdown"]) >= {
        "access_pattern",
        "content_stability",
        "user_engagement",
        "semantic_importance",
        "composite_score",
    }
    assert len(state["history"]) == 1


def test_longterm_list_detail_history_and_as_of(worker, owner_client):
    memory, first = _two_versions(worker)
    base = _base(worker)
    current = owner_client.get(f"{base}/longterm/").json()["results"]
    assert [c["content"] for c in current] == ["The billing service runs on MySQL 8."]
    then = owner_client.get(
        f"{base}/longterm/", {"valid_at": (first + timedelta(hours=2)).isoformat()}
    ).json()["results"]
    assert [c["content"] for c in then] == ["The billing service runs on Postgres 15."]
    assert then[0]["is_current"] is False
    history = owner_client.get(f"{base}/longterm/history/{memory.pk}").json()
    assert [v["end_date"] is None for v in history] == [True, False]
    detail = owner_client.get(f"{base}/longterm/{history[1]['id']}/").json()
    assert detail["content"].endswith("Postgres 15.")
    assert owner_client.get(f"{base}/longterm/", {"valid_at": "soon"}).status_code == 400
    bad = owner_client.get(f"{base}/longterm/", {"confidence_threshold": "2"})
    assert bad.status_code == 400 and "confidence_threshold" in bad.json()["fields"]
    assert owner_client.get(f"{base}/longterm/history/999999").status_code == 404


def test_longterm_search_now_and_as_of(worker, owner_client):
    _, first = _two_versions(worker)
    url = f"{_base(worker)}/search/longterm"
    now = owner_client.post(url, {"query": "billing database"}, format="json").json()
    assert [h["content"] for h in now["results"]] == ["The billing service runs on MySQL 8."]
    assert now["results"][0]["end_date"] is None
    then = owner_client.post(
        url,
        {"query": "billing database", "valid_at": (first + timedelta(hours=1)).isoformat()},
        format="json",
    ).json()
    assert [h["content"] for h in then["results"]] == ["The billing service runs on Postgres 15."]
    both = owner_client.post(
        url,
        {"query": "billing", "mode": "bm25", "time_range": {"start": first.isoformat()}},
        format="json",
    ).json()
    assert len(both["results"]) == 2
    bad = owner_client.post(
        url, {"query": "billing", "valid_at": "now", "time_range": [None, None]}, format="json"
    )
    assert bad.status_code == 400 and "time_range" in bad.json()["fields"]


def test_sweeps_are_queued_and_listed(worker, owner_client):
    memory = shortterm_memory_create(worker=worker, title="Prefs", content="I prefer tea.")
    owner_client.post(
        f"{_base(worker)}/shortterm/{memory.pk}/events", {"kind": "correct"}, format="json"
    )
    # the task cluster runs inline in the tests
    assert owner_client.post(f"{_base(worker)}/promotions/").status_code == 202
    runs = owner_client.get(f"{_base(worker)}/promotions/").json()["results"]
    assert runs[0]["kind"] == "promotion"
    assert runs[0]["outcomes"][0]["summary"]["promoted"] == 1
    assert LongtermChunk.objects.filter(shortterm_memory_id=memory.pk).exists()
    assert owner_client.post(f"{_base(worker)}/retention/").status_code == 202
    all_runs = owner_client.get(f"{_base(worker)}/consolidation/runs", {"kind": "promotion"})
    assert {r["kind"] for r in all_runs.json()["results"]} == {"promotion"}
    assert owner_client.get(f"{_base(worker)}/consolidation/runs", {"kind": "x"}).status_code == 400


def test_entity_history_shows_observations_and_longterm_versions(worker, owner_client):
    memory = shortterm_memory_create(
        worker=worker, title="Maria", content="Maria works at Acme in Lisbon."
    )
    promotion_check(memory=memory, manual=True)
    entities = owner_client.get(f"{_base(worker)}/entities/", {"prefix": "maria"}).json()
    entity_id = entities[0]["id"] if isinstance(entities, list) else entities["results"][0]["id"]
    history = owner_client.get(f"{_base(worker)}/entities/{entity_id}/history").json()
    assert {o["tier"] for o in history["observations"]} == {"shortterm", "longterm"}
    assert history["longterm"]["name"] == "Maria"
    assert history["relationship_versions"]


def test_another_workers_token_reaches_none_of_it(worker, other_client, owner_client):
    memory, _ = _two_versions(worker)
    base = _base(worker)
    version = LongtermChunk.objects.filter(worker=worker).first()
    for method, url, body in [
        ("get", f"{base}/longterm/", None),
        ("get", f"{base}/longterm/{version.pk}/", None),
        ("get", f"{base}/longterm/history/{memory.pk}", None),
        ("post", f"{base}/search/longterm", {"query": "billing"}),
        ("post", f"{base}/shortterm/{memory.pk}/events", {"kind": "access"}),
        ("get", f"{base}/shortterm/{memory.pk}/events", None),
        ("get", f"{base}/shortterm/{memory.pk}/promotion", None),
        ("post", f"{base}/shortterm/{memory.pk}/promotion", None),
        ("post", f"{base}/promotions/", None),
        ("post", f"{base}/retention/", None),
    ]:
        response = getattr(other_client, method)(url, body, format="json")
        assert response.status_code == 404, (method, url, response.status_code)
    assert not MemoryEvent.objects.exists()
    # and the owner's own token reaches only the owner's versions
    other_version = shortterm_memory_create(worker=worker, title="x", content="y")
    assert owner_client.get(f"{base}/longterm/{other_version.pk + 10**6}/").status_code == 404
