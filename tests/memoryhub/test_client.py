"""The Python client over real HTTP against the real app (pytest-django's live server),
and through a flaky local proxy for its retries: 503s, a 429, an answer lost after the
app acted, no server at all."""

import asyncio
import socket
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from memoryhub.client import (
    AsyncMemoryHub,
    ConnectionFailed,
    MemoryHub,
    MemoryHubError,
    NotFoundError,
    ServerError,
    ValidationError,
)
from memoryhub.services.workers import token_issue
from tests.factories import TASK_TEMPLATE
from tiers.models import ActiveMemory, ShorttermMemory

pytestmark = pytest.mark.django_db(transaction=True)

INCIDENT = (
    "The deploy of ledger-api to fra1 failed on Tuesday because the TLS certificate had "
    "expired. Thabo renewed the certificate and the rollout finished an hour later."
)


@pytest.fixture
def key(worker):
    return token_issue(worker=worker, name="client")[1]


@pytest.fixture
def hub(live_server, key):
    with MemoryHub(live_server.url, key, backoff=0.01) as hub:
        yield hub


class FlakyProxy:
    """Forwards to the app, but answers the next requests as ``plan`` says: "503" or
    "429" (without forwarding), "drop" (forward, then close the connection without an
    answer: the app acted, the client never hears), "forward". Records each request."""

    def __init__(self, upstream: str, plan=()):
        self.plan = deque(plan)
        self.seen: list[dict] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                action = proxy.plan.popleft() if proxy.plan else "forward"
                record = {
                    "method": self.command,
                    "path": self.path,
                    "key": self.headers.get("Idempotency-Key"),
                    "action": action,
                }
                proxy.seen.append(record)
                if action in ("503", "429"):
                    self.send_response(int(action))
                    if action == "429":
                        self.send_header("Retry-After", "1")
                    self.send_header("Content-Type", "text/plain")
                    self.end_headers()
                    self.wfile.write(b"proxy: try again")
                    return
                headers = {
                    name: value
                    for name, value in self.headers.items()
                    if name.lower() not in ("host", "content-length", "connection")
                }
                answer = httpx.request(
                    self.command, upstream + self.path, headers=headers, content=body, timeout=60
                )
                record["status"] = answer.status_code
                record["replayed"] = answer.headers.get("Idempotent-Replayed") == "true"
                if action == "drop":
                    self.close_connection = True
                    return
                self.send_response(answer.status_code)
                for name in ("Content-Type", "Idempotent-Replayed", "Retry-After"):
                    if name in answer.headers:
                        self.send_header(name, answer.headers[name])
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _handle

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def proxy(live_server):
    proxy = FlakyProxy(live_server.url)
    yield proxy
    proxy.close()


@pytest.fixture
def flaky_hub(proxy, key, worker):
    with MemoryHub(proxy.url, key, worker_id=worker.pk, backoff=0.01) as hub:
        yield hub


# --- Round trips -------------------------------------------------------------------


def test_it_creates_searches_retrieves_and_builds_context(hub, worker):
    memory = hub.create_shortterm("Deploy incident", content=INCIDENT, metadata={"kind": "ops"})
    assert hub.worker_id == worker.pk  # the token's worker, read from /me on first use
    assert memory["title"] == "Deploy incident" and memory["chunks"]

    hits = hub.search_shortterm("TLS certificate expired", include_graph=False)["results"]
    assert hits[0]["memory_id"] == memory["id"]
    assert "certificate" in hits[0]["content"]

    retrieval = hub.retrieve("what happened with the TLS certificate", tiers=["shortterm"])
    assert retrieval["tiers"] == ["shortterm"]
    assert retrieval["results"]["shortterm"][0]["memory_id"] == memory["id"]

    context = hub.build_context("the TLS certificate", token_budget=400)
    assert "[Deploy incident]" in context["markdown"]
    assert context["items"][0] == context["items"][0] | {
        "tier": "shortterm",
        "memory_id": memory["id"],
    }
    assert context["tokens"] <= 400

    assert [m["id"] for m in hub.list_shortterm()["results"]] == [memory["id"]]
    assert hub.me()["worker"]["id"] == worker.pk


def test_the_readme_example_runs(live_server, key, capsys):
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    example = readme.split("## Python client", 1)[1].split("```python\n", 1)[1].split("```")[0]
    example = example.replace('"http://127.0.0.1:8000", "mh_..."', f'"{live_server.url}", "{key}"')
    namespace: dict = {}
    exec(compile(example, "README.md", "exec"), namespace)
    assert "1 Deploy incident ledger-api failed" in capsys.readouterr().out
    assert "## Recent context" in namespace["prompt"]


def test_it_works_the_active_and_shortterm_tiers(hub):
    active = hub.create_active(
        "Ship the client", TASK_TEMPLATE, initial_sections={"objective": "A Python client"}
    )
    hub.update_active_sections(active["id"], {"progress": "tests written"})
    (detailed,) = hub.get_active_detailed([active["id"]])
    assert detailed["sections"]["progress"] == {"content": "tests written", "update_count": 1}
    assert hub.list_active(q="client")["count"] == 1

    memory = hub.create_shortterm("Notes", chunks=["first note"])
    added = hub.add_chunks(memory["id"], ["second note", {"content": "third", "metadata": {}}])
    assert [chunk["content"] for chunk in added] == ["second note", "third"]
    hub.update_chunks(memory["id"], {added[0]["id"]: "second note, edited"})
    contents = [chunk["content"] for chunk in hub.get_shortterm(memory["id"])["chunks"]]
    assert contents == ["first note", "second note, edited", "third"]

    event = hub.record_event(memory["id"], "confirm", session_id="s1")
    assert event["kind"] == "confirm"
    assert hub.usage(memory["id"])["events"][0]["id"] == event["id"]

    hub.delete_shortterm(memory["id"])
    with pytest.raises(NotFoundError):
        hub.get_shortterm(memory["id"])


def test_it_replaces_a_section_by_any_name(hub):
    template = TASK_TEMPLATE + "  - id: ab\n    name: A/B plan\n"
    active = hub.create_active("Experiment", template, initial_sections={"objective": "test"})
    updated = hub.update_active_section(active["id"], "A/B plan", "50/50 split")
    assert updated["sections"]["ab"] == {"content": "50/50 split", "update_count": 1}


def test_it_consolidates_an_active_memory(hub):
    active = hub.create_active(
        "Deploy ledger-api", TASK_TEMPLATE, initial_sections={"objective": "Ship ledger-api"}
    )
    hub.update_active_section(active["id"], "Notes", INCIDENT)  # by name
    target = hub.create_shortterm("Deploy incident", content=INCIDENT)
    resolved = hub.auto_resolve(active["id"], target["id"], section="notes")
    assert "certificate" in resolved["active_content"]
    run = hub.consolidate_active(active["id"])
    assert [r["id"] for r in hub.consolidation_runs()["results"]] == [run["id"]]


def test_it_reads_and_corrects_the_graph(hub):
    text = "Alice Chen owns the auth gateway. The auth gateway uses JWT tokens and Redis."
    memory = hub.create_shortterm("Auth", content=text)
    graph = hub.memory_graph(memory["id"])
    alice = next(e for e in graph["entities"] if e["name"] == "Alice Chen")
    owns = next(r for r in graph["relationships"] if r["from_id"] == alice["id"])
    assert [e["id"] for e in hub.entities("Alice")] == [alice["id"]]
    assert hub.entity(alice["id"])["name"] == "Alice Chen"
    assert hub.entity_history(alice["id"])
    around = hub.neighbourhood(alice["id"], hops=1)
    assert owns["to_id"] in {entity["id"] for entity in around["entities"]}
    assert hub.graph_path(alice["id"], owns["to_id"])["found"]
    assert [r["id"] for r in hub.graph_history(alice["id"], owns["to_id"])] == [owns["id"]]

    hub.update_memory_graph(memory["id"], entities=[{"id": alice["id"], "type": "person"}])
    assert hub.entity(alice["id"])["type"] == "person"


def test_it_promotes_and_reads_the_longterm_tier(hub):
    memory = hub.create_shortterm("Deploy incident", content=INCIDENT)
    outcome = hub.request_promotion(memory["id"])
    assert outcome["promoted"] and outcome["versions_created"]
    assert hub.request_promotion(memory["id"])["unchanged"]  # safe to repeat: nothing written

    versions = hub.longterm_history(memory["id"])
    assert {version["id"] for version in versions} == set(outcome["versions_created"])
    assert hub.list_longterm()["count"] == len(versions)
    hits = hub.search_longterm("TLS certificate", include_graph=False)["results"]
    assert hits[0]["memory_id"] == memory["id"] and "confidence" in hits[0]
    assert hub.conflicts(status="pending")["results"] == []


def test_it_does_the_same_round_trip_asynchronously(live_server, key, worker):
    async def round_trip():
        async with AsyncMemoryHub(live_server.url, key, backoff=0.01) as hub:
            memory = await hub.create_shortterm("Deploy incident", content=INCIDENT)
            hits, retrieval, context = await asyncio.gather(
                hub.search_shortterm("TLS certificate"),
                hub.retrieve("what happened with the TLS certificate", tiers=["shortterm"]),
                hub.build_context("the TLS certificate"),
            )
            return hub.worker_id, memory, hits, retrieval, context

    worker_id, memory, hits, retrieval, context = asyncio.run(round_trip())
    assert worker_id == worker.pk
    assert hits["results"][0]["memory_id"] == memory["id"]
    assert retrieval["results"]["shortterm"][0]["memory_id"] == memory["id"]
    assert "[Deploy incident]" in context["markdown"]


def test_it_lists_and_calls_the_tools(hub):
    names = {tool["function"]["name"] for tool in hub.tools()}
    assert {"retrieve", "build_context", "create_shortterm_memory"} <= names

    created = hub.call_tool("create_shortterm_memory", title="Deploy incident", content=INCIDENT)
    assert created["tool"] == "create_shortterm_memory"
    answer = hub.call_tool("retrieve", query="the TLS certificate", tiers=["shortterm"])
    assert answer["result"]["results"]["shortterm"][0]["memory_id"] == created["result"]["id"]


def test_it_runs_the_memory_agents(hub, flaky_hub, proxy):
    active = hub.create_active(
        "Ship the client", TASK_TEMPLATE, initial_sections={"objective": "A Python client"}
    )
    run = hub.run_memorizer(active["id"])  # no LLM here: the deterministic consolidation
    assert (run["agent"], run["status"]) == ("memorizer", "ok")
    assert [r["id"] for r in hub.agent_runs(agent="memorizer")["results"]] == [run["id"]]
    assert hub.get_agent_run(run["id"])["id"] == run["id"]

    with pytest.raises(ServerError) as caught:  # an agent run is never repeated by a retry
        flaky_hub.run_retriever("what is the objective?")
    assert (caught.value.status, caught.value.code) == (503, "no_llm")
    assert len(proxy.seen) == 1


# --- Errors ------------------------------------------------------------------------


def test_it_names_the_field_of_a_400(hub):
    with pytest.raises(ValidationError) as caught:
        hub.build_context("   ")
    error = caught.value
    assert (error.status, error.code) == (400, "invalid")
    assert error.fields == {"query": "must not be empty"}
    assert "query" in error.detail


def test_it_raises_not_found_for_a_memory_out_of_reach(hub, other_worker):
    theirs = ShorttermMemory.objects.create(worker=other_worker, title="theirs")
    for memory_id in (theirs.pk, 999_999):
        with pytest.raises(NotFoundError) as caught:
            hub.get_shortterm(memory_id)
        assert (caught.value.status, caught.value.code) == (404, "not_found")


def test_it_asks_a_staff_token_for_a_worker(live_server, staff_user, worker):
    key = token_issue(user=staff_user, name="staff")[1]
    with MemoryHub(live_server.url, key) as hub:
        with pytest.raises(MemoryHubError) as caught:
            hub.list_shortterm()
        assert caught.value.code == "worker_required"
    with MemoryHub(live_server.url, key, worker_id=worker.pk) as hub:
        assert hub.list_shortterm()["count"] == 0


# --- Retries -----------------------------------------------------------------------


def test_it_retries_two_503s_with_one_idempotency_key(flaky_hub, proxy):
    proxy.plan.extend(["503", "503"])
    memory = flaky_hub.create_shortterm("Deploy incident", content=INCIDENT)
    assert [request["action"] for request in proxy.seen] == ["503", "503", "forward"]
    keys = {request["key"] for request in proxy.seen}
    assert len(keys) == 1 and None not in keys
    assert list(ShorttermMemory.objects.values_list("pk", flat=True)) == [memory["id"]]


def test_it_creates_once_when_the_answer_is_lost_after_the_app_acted(flaky_hub, proxy):
    proxy.plan.append("drop")
    memory = flaky_hub.create_shortterm("Deploy incident", content=INCIDENT)
    first, retry = proxy.seen
    assert (first["action"], first["status"]) == ("drop", 201)  # created, answer lost
    assert retry["key"] == first["key"] and retry["replayed"]  # the first answer, again
    assert list(ShorttermMemory.objects.values_list("pk", flat=True)) == [memory["id"]]


def test_it_calls_a_writing_tool_once_when_the_answer_is_lost(flaky_hub, proxy):
    proxy.plan.append("drop")
    answer = flaky_hub.call_tool("create_shortterm_memory", title="Incident", content=INCIDENT)
    first, retry = proxy.seen
    assert retry["key"] == first["key"] and retry["replayed"]
    assert list(ShorttermMemory.objects.values_list("pk", flat=True)) == [answer["result"]["id"]]


def test_it_gives_every_logical_call_its_own_key(flaky_hub, proxy):
    flaky_hub.create_shortterm("one", content="first")
    flaky_hub.create_shortterm("two", content="second")
    assert len({request["key"] for request in proxy.seen}) == 2
    assert ShorttermMemory.objects.count() == 2


def test_it_counts_a_delete_done_when_its_retry_finds_nothing(flaky_hub, proxy):
    memory = flaky_hub.create_active("Ship it", TASK_TEMPLATE, initial_sections={"objective": "x"})
    proxy.plan.append("drop")
    assert flaky_hub.delete_active(memory["id"]) is None
    assert [request["status"] for request in proxy.seen[-2:]] == [204, 404]
    assert not ActiveMemory.objects.exists()


def test_it_honours_retry_after_on_a_429(flaky_hub, proxy):
    proxy.plan.append("429")
    started = time.monotonic()
    assert flaky_hub.list_shortterm()["count"] == 0
    assert time.monotonic() - started >= 1.0  # Retry-After: 1, not the 10 ms backoff
    assert len(proxy.seen) == 2


def test_it_never_retries_a_400(flaky_hub, proxy):
    with pytest.raises(ValidationError) as caught:
        flaky_hub.create_shortterm("", content=INCIDENT)
    assert (caught.value.status, caught.value.code) == (400, "validation_error")
    assert "title" in caught.value.fields
    assert len(proxy.seen) == 1


def test_it_gives_up_after_its_retries(proxy, key, worker):
    proxy.plan.extend(["503"] * 5)
    with MemoryHub(proxy.url, key, worker_id=worker.pk, retries=2, backoff=0.01) as hub:
        with pytest.raises(ServerError) as caught:
            hub.list_shortterm()
    assert (caught.value.status, caught.value.code) == (503, "http_503")
    assert caught.value.detail == "proxy: try again"
    assert len(proxy.seen) == 3


def test_it_raises_connection_failed_when_no_server_answers(key):
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    with MemoryHub(f"http://127.0.0.1:{port}", key, worker_id=1, backoff=0.01) as hub:
        with pytest.raises(ConnectionFailed) as caught:
            hub.list_shortterm()
    assert caught.value.status is None
    assert isinstance(caught.value.__cause__, httpx.ConnectError)


def test_it_retries_asynchronously_with_one_key(proxy, key, worker):
    proxy.plan.extend(["503", "drop"])

    async def create():
        async with AsyncMemoryHub(proxy.url, key, worker_id=worker.pk, backoff=0.01) as hub:
            return await hub.create_shortterm("Deploy incident", content=INCIDENT)

    memory = asyncio.run(create())
    creates = [request for request in proxy.seen if request["method"] == "POST"]
    assert [request["action"] for request in creates] == ["503", "drop", "forward"]
    assert len({request["key"] for request in creates}) == 1 and creates[-1]["replayed"]
    assert list(ShorttermMemory.objects.values_list("pk", flat=True)) == [memory["id"]]
