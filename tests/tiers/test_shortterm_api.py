import pytest

from tests.helpers import assert_error
from tiers.models import Bm25Corpus, ShorttermChunk, ShorttermMemory
from tiers.services.shortterm import shortterm_memory_create

pytestmark = pytest.mark.django_db


def base(worker) -> str:
    return f"/api/v1/workers/{worker.pk}/shortterm/"


def search_url(worker) -> str:
    return f"/api/v1/workers/{worker.pk}/search/shortterm"


@pytest.fixture
def memory(worker):
    return shortterm_memory_create(
        worker=worker,
        title="Auth",
        summary="how we authenticate",
        chunks=[
            {"content": "We use JWT tokens.", "metadata": {"dia_id": "D1:1"}},
            {"content": "Tokens expire after one hour.", "metadata": {"dia_id": "D1:2"}},
        ],
    )


def test_it_creates_a_memory_from_content_and_chunks(owner_client, worker):
    long_text = " ".join(f"Fact number {i} is about the deploy of service {i}." for i in range(200))
    response = owner_client.post(
        base(worker),
        {
            "title": "Deploys",
            "summary": "s",
            "metadata": {"source": "bench", "ids": [1, 2]},
            "content": long_text,
            "chunks": [
                {
                    "content": "Extra fact.",
                    "metadata": {"external_id": "x-1", "nested": {"a": [1]}},
                    "context": "From the deploy runbook:",
                }
            ],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["metadata"] == {"source": "bench", "ids": [1, 2]}
    chunks = body["chunks"]
    assert len(chunks) >= 3
    assert [c["chunk_order"] for c in chunks] == list(range(len(chunks)))
    assert chunks[-1]["content"] == "From the deploy runbook:\n\nExtra fact."
    assert chunks[-1]["metadata"] == {"external_id": "x-1", "nested": {"a": [1]}}  # unchanged
    assert "embedding" not in chunks[0]
    assert ShorttermChunk.objects.filter(
        memory_id=body["id"], embedding__isnull=False
    ).count() == len(chunks)


def test_it_gets_lists_and_recent(owner_client, worker, memory):
    shortterm_memory_create(worker=worker, title="Newer", chunks=[{"content": "later"}])
    detail = owner_client.get(f"{base(worker)}{memory.pk}/").json()
    assert [c["content"] for c in detail["chunks"]] == [
        "We use JWT tokens.",
        "Tokens expire after one hour.",
    ]
    listing = owner_client.get(base(worker)).json()
    assert [m["title"] for m in listing["results"]] == ["Newer", "Auth"]
    assert listing["results"][1]["chunk_count"] == 2
    recent = owner_client.get(f"{base(worker)}recent", {"limit": 1}).json()
    assert [m["title"] for m in recent] == ["Newer"]


def test_it_updates_title_summary_metadata(owner_client, worker, memory):
    response = owner_client.patch(
        f"{base(worker)}{memory.pk}/", {"summary": "new", "metadata": {"k": 1}}, format="json"
    )
    assert response.status_code == 200 and response.json()["summary"] == "new"


def test_it_adds_and_updates_chunks(owner_client, worker, memory):
    added = owner_client.post(
        f"{base(worker)}{memory.pk}/chunks",
        {"chunks": [{"content": "Refresh tokens last 7 days."}]},
        format="json",
    )
    assert added.status_code == 201 and added.json()[0]["chunk_order"] == 2
    first = memory.chunks.get(chunk_order=0)
    updated = owner_client.patch(
        f"{base(worker)}{memory.pk}/chunks",
        {"updates": [{"chunk_id": first.pk, "new_content": "We use PASETO tokens."}]},
        format="json",
    )
    assert updated.status_code == 200, updated.content
    hits = owner_client.post(
        search_url(worker), {"query": "PASETO", "mode": "bm25"}, format="json"
    ).json()["results"]
    assert [h["chunk_id"] for h in hits] == [first.pk]


def test_it_deletes(owner_client, worker, memory):
    assert owner_client.delete(f"{base(worker)}{memory.pk}/").status_code == 204
    assert not ShorttermChunk.objects.exists()
    assert Bm25Corpus.objects.get(worker=worker).doc_count == 0


def test_it_searches(owner_client, worker, memory):
    response = owner_client.post(
        search_url(worker), {"query": "when do tokens expire", "limit": 5}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["mode"] == "hybrid"
    top = body["results"][0]
    assert top["content"] == "Tokens expire after one hour."
    assert top["metadata"] == {"dia_id": "D1:2"}
    assert set(top) >= {
        "chunk_id",
        "memory_id",
        "memory_title",
        "similarity",
        "bm25_score",
        "fused_score",
        "rank",
    }


def test_it_runs_the_retrievers_search_queries(owner_client, worker, memory):
    other = shortterm_memory_create(
        worker=worker, title="Budget", chunks=[{"content": "Budget is $50,000."}]
    )
    response = owner_client.post(
        search_url(worker),
        {
            "search_queries": [
                {"shortterm_memory_id": memory.pk, "search_content": "token expiry"},
                {"shortterm_memory_id": other.pk, "search_content": "budget"},
            ],
            "mode": "bm25",
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    groups = response.json()["results"]
    assert [g["shortterm_memory_id"] for g in groups] == [memory.pk, other.pk]
    assert {h["memory_id"] for h in groups[1]["results"]} == {other.pk}


# --- isolation ----------------------------------------------------------------------------


def _endpoints(worker, memory):
    detail = f"{base(worker)}{memory.pk}/"
    chunk = memory.chunks.first()
    return [
        ("get", base(worker), None),
        ("post", base(worker), {"title": "x", "content": "y"}),
        ("get", f"{base(worker)}recent", None),
        ("get", detail, None),
        ("patch", detail, {"title": "x"}),
        ("delete", detail, None),
        ("post", f"{detail}chunks", {"chunks": [{"content": "x"}]}),
        ("patch", f"{detail}chunks", {"updates": [{"chunk_id": chunk.pk, "new_content": "x"}]}),
        ("post", search_url(worker), {"query": "tokens"}),
    ]


def test_another_workers_token_gets_404_and_changes_nothing(other_client, worker, memory):
    before = list(ShorttermChunk.objects.values("id", "content"))
    for method, url, data in _endpoints(worker, memory):
        assert_error(getattr(other_client, method)(url, data, format="json"), 404, "not_found")
    assert list(ShorttermChunk.objects.values("id", "content")) == before
    assert ShorttermMemory.objects.count() == 1


def test_anonymous_gets_401(anon_client, worker, memory):
    for method, url, data in _endpoints(worker, memory):
        assert_error(getattr(anon_client, method)(url, data, format="json"), 401)


def test_a_chunk_of_another_memory_is_404(owner_client, worker, memory):
    other = shortterm_memory_create(worker=worker, title="o", chunks=[{"content": "other"}])
    foreign_chunk = other.chunks.get()
    response = owner_client.patch(
        f"{base(worker)}{memory.pk}/chunks",
        {
            "updates": [
                {"chunk_id": memory.chunks.first().pk, "new_content": "changed"},
                {"chunk_id": foreign_chunk.pk, "new_content": "hijack"},
            ]
        },
        format="json",
    )
    body = assert_error(response, 404, "not_found")
    assert str(foreign_chunk.pk) in body["detail"]
    assert foreign_chunk.__class__.objects.get(pk=foreign_chunk.pk).content == "other"
    assert memory.chunks.first().content == "We use JWT tokens."


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "status", "field"),
    [
        ({"query": ""}, 400, "query"),
        ({"query": "x", "limit": 0}, 400, "limit"),
        ({"query": "x", "limit": 1000}, 400, "limit"),
        ({"query": "x", "mode": "magic"}, 400, "mode"),
        ({}, 400, "query"),
        ({"query": "x", "search_queries": []}, 400, "query"),
        ({"query": "x", "memory_ids": ["a"]}, 400, "memory_ids"),
    ],
)
def test_bad_search_input_is_400(owner_client, worker, memory, payload, status, field):
    assert_error(owner_client.post(search_url(worker), payload, format="json"), status, None, field)


def test_an_unknown_memory_id_in_filters_is_404_naming_it(owner_client, worker, memory):
    body = assert_error(
        owner_client.post(
            search_url(worker), {"query": "x", "memory_ids": [memory.pk, 424242]}, format="json"
        ),
        404,
        "not_found",
        "memory_ids",
    )
    assert "424242" in body["detail"]
    body = assert_error(
        owner_client.post(
            search_url(worker),
            {"search_queries": [{"shortterm_memory_id": 424243, "search_content": "x"}]},
            format="json",
        ),
        404,
        "not_found",
    )
    assert "424243" in body["detail"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"title": "t"}, "content"),
        ({"title": "t", "content": ""}, "content"),
        ({"title": "t", "content": 5}, "content"),
        ({"title": "t", "chunks": [{"content": None}]}, "chunks[0].content"),
        ({"title": "t", "chunks": [{"content": "x", "metadata": "m"}]}, "chunks[0].metadata"),
        ({"title": "t", "chunks": ["plain"]}, "chunks[0]"),
        ({"title": "", "content": "x"}, "title"),
    ],
)
def test_bad_create_input_is_400_and_writes_nothing(owner_client, worker, payload, field):
    assert_error(owner_client.post(base(worker), payload, format="json"), 400, None, field)
    assert not ShorttermMemory.objects.exists() and not ShorttermChunk.objects.exists()


def test_create_with_idempotency_key_creates_once(owner_client, worker):
    payload = {"title": "t", "content": "once only"}
    first = owner_client.post(base(worker), payload, format="json", HTTP_IDEMPOTENCY_KEY="st-1")
    again = owner_client.post(base(worker), payload, format="json", HTTP_IDEMPOTENCY_KEY="st-1")
    assert first.json() == again.json() and ShorttermMemory.objects.count() == 1


def test_recent_with_bad_parameters_is_400(owner_client, worker):
    assert_error(owner_client.get(f"{base(worker)}recent", {"limit": "x"}), 400, None, "limit")
    assert_error(
        owner_client.get(f"{base(worker)}recent", {"since": "yesterday"}), 400, None, "since"
    )
