"""The tool registry (agents/tools.py): the manifest generated from the serializers, and
tools invoked directly and over REST on a real database."""

import jsonschema
import pytest
from django.urls import reverse

from agents.tools import call_tool, json_schema, openai_tools, tool_get, tool_list
from graph.selectors.graph import memories_graph
from memoryhub.errors import DomainError, NotFoundError
from tests.factories import ActiveMemoryFactory
from tests.helpers import assert_error
from tiers.models import ActiveMemory, MemoryEvent, ShorttermChunk, ShorttermMemory
from tiers.services.shortterm import shortterm_memory_create

SEED_003_TOOLS = {
    "get_detailed_active_memories",
    "create_active_memory",
    "update_active_memory",
    "auto_resolve",
    "create_shortterm_memory",
    "update_shortterm_memory",
    "update_shortterm_memory_chunks",
    "add_new_shortterm_memory_chunks",
    "update_shortterm_memory_entities_relationships",
    "search_shortterm_memory",
    "search_longterm_memory",
}
OURS = {
    "retrieve",
    "build_context",
    "list_active_memories",
    "list_shortterm_memories",
    "record_memory_event",
}


def _tools_url() -> str:
    return reverse("api:agents-root-api:tools")


def _invoke_url(worker, name: str) -> str:
    return reverse("api:agents-api:tool-invoke", args=[worker.pk, name])


# --- The manifest -------------------------------------------------------------------------


def test_it_lists_seed_003s_tools_and_ours():
    assert {tool.name for tool in tool_list()} == SEED_003_TOOLS | OURS
    writes = {tool.name for tool in tool_list() if tool.writes}
    assert "create_shortterm_memory" in writes and "search_shortterm_memory" not in writes


def test_it_generates_each_schema_from_the_serializer():
    manifest = {entry["function"]["name"]: entry for entry in openai_tools()}
    for tool in tool_list():
        entry = manifest[tool.name]
        assert entry["type"] == "function"
        assert entry["function"]["description"] == tool.description
        parameters = entry["function"]["parameters"]
        assert parameters == json_schema(tool.serializer)
        jsonschema.Draft202012Validator.check_schema(parameters)
        assert set(parameters["properties"]) == {
            name for name, field in tool.serializer().fields.items() if not field.read_only
        }

    search = manifest["search_shortterm_memory"]["function"]["parameters"]
    assert search["properties"]["mode"] == {
        "enum": ["vector", "bm25", "hybrid"],
        "type": "string",
        "default": "hybrid",
    }
    criteria = search["properties"]["search_queries"]["items"]
    assert criteria["required"] == ["shortterm_memory_id", "search_content"]
    assert criteria["properties"]["shortterm_memory_id"] == {"type": "integer", "minimum": 1}
    assert "required" not in search  # query or search_queries

    longterm = manifest["search_longterm_memory"]["function"]["parameters"]
    assert longterm["required"] == ["search_content"]
    assert longterm["properties"]["confidence_threshold"]["maximum"] == 1
    assert longterm["properties"]["time_range"]["minItems"] == 2

    event = manifest["record_memory_event"]["function"]["parameters"]
    assert "reinforce" not in event["properties"]["kind"]["enum"]  # consolidation's own
    assert event["properties"]["importance"] == {
        "type": "number",
        "minimum": 0,
        "maximum": 10,
        "description": "0-10, with mark_important",
    }
    chunks = manifest["update_shortterm_memory_chunks"]["function"]["parameters"]
    assert chunks["properties"]["chunk_updates"]["minItems"] == 1
    assert chunks["properties"]["chunk_updates"]["items"]["required"] == ["chunk_id", "new_content"]
    create = manifest["create_active_memory"]["function"]["parameters"]
    assert create["properties"]["metadata"] == {"type": "object"}  # JSONObjectField
    assert create["additionalProperties"] is False


def test_it_names_the_tools_asked_for_and_refuses_an_unknown_one():
    assert [t["function"]["name"] for t in openai_tools(["retrieve", "auto_resolve"])] == [
        "retrieve",
        "auto_resolve",
    ]
    with pytest.raises(NotFoundError):
        tool_get("drop_database")


# --- Calling the tools directly -----------------------------------------------------------


@pytest.mark.django_db
def test_it_creates_and_reads_active_memories(worker):
    created = call_tool(
        worker=worker,
        name="create_active_memory",
        arguments={"title": "Q3 plan", "description": "marketing", "content": "Budget $50,000."},
    )
    assert created["sections"]["content"]["content"] == "Budget $50,000."
    assert isinstance(created["created_at"], str)  # ISO text, not a datetime

    updated = call_tool(
        worker=worker,
        name="update_active_memory",
        arguments={"memory_id": created["id"], "content": "Budget $65,000."},
    )
    assert updated["sections"]["content"] == {"content": "Budget $65,000.", "update_count": 1}

    summaries = call_tool(worker=worker, name="list_active_memories", arguments={})
    assert [s["id"] for s in summaries] == [created["id"]]
    detailed = call_tool(
        worker=worker,
        name="get_detailed_active_memories",
        arguments={"active_memory_ids": [created["id"]]},
    )
    assert detailed[0]["sections"]["content"]["content"] == "Budget $65,000."


@pytest.mark.django_db
def test_it_runs_the_memorizer_steps(worker):
    active = ActiveMemoryFactory(worker=worker, title="Auth")
    call_tool(
        worker=worker,
        name="update_active_memory",
        arguments={
            "memory_id": active.pk,
            "sections": {"notes": "The AuthenticationService uses the JWTManager."},
        },
    )
    memory = call_tool(
        worker=worker,
        name="create_shortterm_memory",
        arguments={
            "title": "Authentication",
            "summary": "how login works",
            "chunks": [{"content": "Token-based auth is planned.", "context": "[Context: auth]"}],
        },
    )
    chunk_id = memory["chunks"][0]["id"]
    assert memory["chunks"][0]["content"].startswith("[Context: auth]")

    resolved = call_tool(
        worker=worker,
        name="auto_resolve",
        arguments={"active_memory_id": active.pk, "shortterm_memory_id": memory["id"]},
    )
    assert "JWTManager" in resolved["active_content"]
    assert resolved["similar_chunks"][0]["chunk_id"] == chunk_id

    call_tool(
        worker=worker,
        name="update_shortterm_memory_chunks",
        arguments={
            "shortterm_memory_id": memory["id"],
            "chunk_updates": [{"chunk_id": chunk_id, "new_content": "JWT auth is live."}],
        },
    )
    added = call_tool(
        worker=worker,
        name="add_new_shortterm_memory_chunks",
        arguments={"shortterm_memory_id": memory["id"], "new_chunks": [{"content": "RS256."}]},
    )
    assert list(
        ShorttermChunk.objects.filter(memory_id=memory["id"])
        .order_by("chunk_order")
        .values_list("content", flat=True)
    ) == ["JWT auth is live.", "RS256."]
    assert added[0]["chunk_order"] == 1

    renamed = call_tool(
        worker=worker,
        name="update_shortterm_memory",
        arguments={"shortterm_memory_id": memory["id"], "title": "Auth system"},
    )
    assert renamed["title"] == "Auth system"

    assert resolved["entity_differences"]["new"], resolved  # stored in the memory's graph
    entities = memories_graph(worker=worker, memory_ids=[memory["id"]])[memory["id"]]["entities"]
    graph = call_tool(
        worker=worker,
        name="update_shortterm_memory_entities_relationships",
        arguments={
            "shortterm_memory_id": memory["id"],
            "entity_updates": [{"entity_id": entities[0]["id"], "description": "checked"}],
        },
    )
    edited = next(e for e in graph["entities"] if e["id"] == entities[0]["id"])
    assert edited["description"] == "checked" and edited["edited"] is True
    with pytest.raises(DomainError) as caught:
        call_tool(
            worker=worker,
            name="update_shortterm_memory_entities_relationships",
            arguments={"shortterm_memory_id": memory["id"]},
        )
    assert "entity_updates" in caught.value.fields  # the service's "entities", in tool words


@pytest.mark.django_db
def test_it_searches_retrieves_and_records_usage(worker):
    memory = shortterm_memory_create(
        worker=worker, title="Deploys", content="The ledger-api deploys to fra1 every Friday."
    )
    plain = call_tool(
        worker=worker, name="search_shortterm_memory", arguments={"query": "ledger-api deploys"}
    )
    assert plain["results"][0]["memory_id"] == memory.pk
    grouped = call_tool(
        worker=worker,
        name="search_shortterm_memory",
        arguments={
            "search_queries": [{"shortterm_memory_id": memory.pk, "search_content": "Friday"}],
            "include_graph": False,
        },
    )
    assert grouped["results"][0]["shortterm_memory_id"] == memory.pk
    assert "graph" not in grouped["results"][0]["results"][0]

    found = call_tool(
        worker=worker, name="retrieve", arguments={"query": "ledger-api", "tiers": ["shortterm"]}
    )
    assert found["tiers"] == ["shortterm"] and found["results"]["shortterm"]
    context = call_tool(worker=worker, name="build_context", arguments={"query": "deploys"})
    assert "ledger-api" in context["markdown"]
    longterm = call_tool(
        worker=worker,
        name="search_longterm_memory",
        arguments={"search_content": "deploys", "time_range": ["2020-01-01", None]},
    )
    assert longterm == {"mode": "hybrid", "results": []}

    event = call_tool(
        worker=worker,
        name="record_memory_event",
        arguments={"shortterm_memory_id": memory.pk, "kind": "confirm", "detail": "still true"},
    )
    assert event["kind"] == "confirm" and event["memory"] == memory.pk
    assert MemoryEvent.objects.filter(memory=memory, kind="confirm").count() == 1
    summaries = call_tool(worker=worker, name="list_shortterm_memories", arguments={"limit": 5})
    assert [s["id"] for s in summaries] == [memory.pk]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "arguments", "field"),
    [
        ("create_shortterm_memory", {"title": "x"}, "content"),
        ("create_shortterm_memory", {"title": "x", "content": 5}, "content"),
        ("create_shortterm_memory", {"title": "x", "chunks": [{}]}, "chunks[0].content"),
        ("search_shortterm_memory", {"query": "a", "mode": "fuzzy"}, "mode"),
        ("search_shortterm_memory", {"search_queries": [{}]}, "search_queries[0].search_content"),
        ("search_longterm_memory", {"search_content": "a", "limit": 0}, "limit"),
        ("search_longterm_memory", {"search_content": "a", "time_range": ["2020"]}, "time_range"),
        ("search_longterm_memory", {"search_content": "a", "valid_at": "soon"}, "valid_at"),
        ("record_memory_event", {"shortterm_memory_id": 1, "kind": "reinforce"}, "kind"),
        ("retrieve", {"query": "a", "tiers": ["everything"]}, "tiers[0]"),
        ("retrieve", {"query": "a", "tier": "active"}, "tier"),
        ("update_active_memory", {"memory_id": 1}, "non_field_errors"),
        ("search_shortterm_memory", {"query": "a", "search_queries": []}, "search_queries"),
    ],
)  # fmt: skip
def test_it_refuses_bad_arguments_naming_the_field(worker, name, arguments, field):
    with pytest.raises(DomainError) as caught:
        call_tool(worker=worker, name=name, arguments=arguments)
    assert caught.value.status_code == 400
    assert field in caught.value.fields, caught.value.fields


@pytest.mark.django_db
def test_a_service_error_names_the_tools_argument(worker):
    memory = shortterm_memory_create(worker=worker, title="T", content="text")
    with pytest.raises(NotFoundError) as caught:
        call_tool(
            worker=worker,
            name="update_shortterm_memory_chunks",
            arguments={
                "shortterm_memory_id": memory.pk,
                "chunk_updates": [{"chunk_id": 999999, "new_content": "x"}],
            },
        )
    assert "chunk_updates" in caught.value.fields


@pytest.mark.django_db
def test_another_workers_memory_is_not_found(worker, other_worker):
    memory = shortterm_memory_create(worker=other_worker, title="Secret", content="theirs")
    with pytest.raises(NotFoundError):
        call_tool(
            worker=worker,
            name="update_shortterm_memory",
            arguments={"shortterm_memory_id": memory.pk, "title": "mine now"},
        )
    assert ShorttermMemory.objects.get(pk=memory.pk).title == "Secret"


# --- REST ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_get_tools_gives_the_manifest_to_any_token(owner_client, staff_client, anon_client):
    response = owner_client.get(_tools_url())
    assert response.status_code == 200
    assert response.json() == openai_tools()
    assert staff_client.get(_tools_url()).status_code == 200
    assert_error(anon_client.get(_tools_url()), 401, "not_authenticated")


@pytest.mark.django_db
def test_post_invokes_a_tool_and_the_write_is_in_the_database(owner_client, worker):
    response = owner_client.post(
        _invoke_url(worker, "create_shortterm_memory"),
        {"title": "Runbook", "content": "Restart the queue with make restart-q."},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["tool"] == "create_shortterm_memory"
    memory = ShorttermMemory.objects.get(pk=body["result"]["id"])
    assert memory.worker == worker and memory.chunks.count() == 1


@pytest.mark.django_db
def test_idempotency_key_replays_a_writing_tool(owner_client, worker):
    url = _invoke_url(worker, "create_active_memory")
    payload = {"title": "Once", "content": "only once"}
    first = owner_client.post(url, payload, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = owner_client.post(url, payload, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert ActiveMemory.objects.filter(worker=worker, title="Once").count() == 1


@pytest.mark.django_db
def test_bad_arguments_over_rest_are_a_400_naming_the_field(owner_client, worker):
    response = owner_client.post(
        _invoke_url(worker, "search_shortterm_memory"), {"query": "a", "limit": 0}, format="json"
    )
    assert_error(response, 400, "validation_error", "limit")
    response = owner_client.post(
        _invoke_url(worker, "search_shortterm_memory"), [1, 2], format="json"
    )
    assert_error(response, 400, "validation_error", "arguments")


@pytest.mark.django_db
def test_an_unknown_tool_is_a_404(owner_client, worker):
    assert_error(owner_client.post(_invoke_url(worker, "nope"), {}, format="json"), 404)


@pytest.mark.django_db
def test_another_workers_token_is_a_404(other_client, anon_client, staff_client, worker):
    url = _invoke_url(worker, "list_shortterm_memories")
    assert_error(other_client.post(url, {}, format="json"), 404, "not_found")
    assert_error(anon_client.post(url, {}, format="json"), 401)
    assert staff_client.post(url, {}, format="json").status_code == 200
