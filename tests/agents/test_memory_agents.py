"""The in-process memory agents (seed 003) against a local fake OpenAI-compatible server
(the ``llm`` fixture): each scripted reply is one LLM turn; the tool calls it holds run
for real on the database."""

import json
import time

import pytest
from werkzeug import Response

from agents.models import AgentRun
from agents.tools import NOTE_TEMPLATE
from tiers.models import ActiveMemory, ShorttermChunk
from tiers.selectors.active import active_memory_sections_view
from tiers.services.active import active_memory_create
from tiers.services.shortterm import shortterm_memory_create

pytestmark = pytest.mark.django_db


# --- The fake LLM's script ----------------------------------------------------------------


def call(name: str, arguments, call_id: str = "call_1") -> dict:
    """An assistant turn with one tool call (``arguments``: a dict, or raw text as sent)."""
    return calls((name, arguments, call_id))


def calls(*items) -> dict:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                },
            }
            for name, arguments, call_id in items
        ],
    }


def text(content: str) -> dict:
    return {"role": "assistant", "content": content}


def script(llm, *turns) -> list[dict]:
    """Serve ``turns`` one per chat request (a callable turn gets the request body; the
    last turn repeats); returns the request bodies as they arrive."""
    requests: list[dict] = []
    queue = list(turns)

    def handler(request):
        body = json.loads(request.data)
        requests.append(body)
        turn = queue.pop(0) if len(queue) > 1 else queue[0]
        if callable(turn):
            turn = turn(body)
        if isinstance(turn, Response):
            return turn
        return Response(
            json.dumps({"choices": [{"index": 0, "message": turn, "finish_reason": "stop"}]}),
            content_type="application/json",
        )

    llm.expect_request("/v1/chat/completions", method="POST").respond_with_handler(handler)
    return requests


def tool_messages(body: dict) -> list[dict]:
    return [json.loads(m["content"]) for m in body["messages"] if m["role"] == "tool"]


def url(worker, agent: str) -> str:
    return f"/api/v1/workers/{worker.pk}/agents/{agent}"


def note(worker, title: str, content: str) -> ActiveMemory:
    return active_memory_create(
        worker=worker,
        title=title,
        description="",
        template_yaml=NOTE_TEMPLATE,
        initial_sections={"content": content},
    )


def content_of(memory: ActiveMemory) -> str:
    memory.refresh_from_db()
    return {row["id"]: row["content"] for row in active_memory_sections_view(memory)}["content"]


@pytest.fixture
def heuristic_extractor(settings):
    """The rule extractor: the spaCy parser is not what these tests are about."""
    settings.MEMORYHUB_GRAPH = settings.MEMORYHUB_GRAPH | {"extractor": "heuristic"}


@pytest.fixture
def q3(worker):
    return note(worker, "Q3 Marketing Plan", "Budget allocated: $50,000. Focus: social media.")


# --- The updater ---------------------------------------------------------------------------


def test_it_updates_an_active_memory_after_reading_it(owner_client, worker, llm, q3):
    merged = "Budget allocated: $65,000. Focus: social media and influencer partnerships."
    requests = script(
        llm,
        call("get_detailed_active_memories", {"active_memory_ids": [q3.pk]}),
        call("update_active_memory", {"memory_id": q3.pk, "content": merged}, "call_2"),
        text(f"Updated active memory #{q3.pk} 'Q3 Marketing Plan' with the new budget."),
    )

    response = owner_client.post(
        url(worker, "updater"), {"message": "The Q3 budget is now $65,000."}, format="json"
    )

    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ok" and body["agent"] == "updater"
    assert body["answer"].startswith(f"Updated active memory #{q3.pk}")
    assert [(s["tool"], s["ok"]) for s in body["steps"]] == [
        ("get_detailed_active_memories", True),
        ("update_active_memory", True),
    ]
    assert body["result"] == {"active_memory_ids": [q3.pk]}
    assert content_of(q3) == merged
    # The model saw the worker's summaries, only the updater's tools, and the fetched memory.
    first = requests[0]
    assert f"ID: {q3.pk}\nTitle: Q3 Marketing Plan" in first["messages"][1]["content"]
    assert sorted(t["function"]["name"] for t in first["tools"]) == [
        "create_active_memory",
        "get_detailed_active_memories",
        "update_active_memory",
    ]
    assert tool_messages(requests[1])[0][0]["id"] == q3.pk
    assert len(requests) == 3 and AgentRun.objects.get(pk=body["id"]).llm_calls == 3


def test_the_updater_must_read_a_memory_before_replacing_its_content(owner_client, worker, llm, q3):
    requests = script(
        llm,
        call("update_active_memory", {"memory_id": q3.pk, "content": "Budget: $65,000."}),
        call("get_detailed_active_memories", {"active_memory_ids": [q3.pk]}, "call_2"),
        call("update_active_memory", {"memory_id": q3.pk, "content": "Budget: $65,000."}, "c3"),
        text("Updated."),
    )

    body = owner_client.post(url(worker, "updater"), {"message": "budget"}, format="json").json()

    assert body["status"] == "ok"
    assert [s["ok"] for s in body["steps"]] == [False, True, True]
    assert body["steps"][0]["error"].startswith("fetch_first:")
    assert tool_messages(requests[1])[0]["fields"] == {"memory_id": "not fetched in this run"}
    assert content_of(q3) == "Budget: $65,000."


def test_an_updater_that_only_talks_is_reminded_once_then_fails(owner_client, worker, llm, q3):
    requests = script(llm, text("I would update the memory about the budget."))

    body = owner_client.post(
        url(worker, "updater"), {"message": "The Q3 budget is now $65,000."}, format="json"
    ).json()

    assert body["status"] == "failed"
    assert "without performing a memory operation, even after a reminder" in body["error"]
    assert body["steps"] == [] and len(requests) == 2
    reminder = requests[1]["messages"][-1]
    assert (
        reminder["role"] == "user"
        and "You MUST perform the memory operation" in (reminder["content"])
    )
    assert content_of(q3) == "Budget allocated: $50,000. Focus: social media."


def test_a_reminded_updater_that_then_writes_succeeds(owner_client, worker, llm):
    script(
        llm,
        text("Sure, I will remember that."),
        call("create_active_memory", {"title": "Auth bug", "description": "", "content": "Fixed"}),
        text("Created active memory 'Auth bug'."),
    )

    body = owner_client.post(url(worker, "updater"), {"message": "Fixed it"}, format="json").json()

    assert body["status"] == "ok" and body["llm_calls"] == 3
    created = ActiveMemory.objects.get(worker=worker, title="Auth bug")
    assert body["result"] == {"active_memory_ids": [created.pk]}


# --- The loop's limits and errors -----------------------------------------------------------


def test_malformed_arguments_and_tool_errors_go_back_to_the_model(owner_client, worker, llm, q3):
    requests = script(
        llm,
        call("get_detailed_active_memories", '{"active_memory_ids": [1,'),
        calls(
            ("get_detailed_active_memories", {"active_memory_ids": [q3.pk + 999]}, "c2"),
            ("create_active_memory", {"title": "Launch"}, "c3"),
        ),
        call("create_active_memory", {"title": "Launch", "description": "", "content": "Mon"}),
        text("Created active memory 'Launch'."),
    )

    response = owner_client.post(url(worker, "updater"), {"message": "launch"}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert [s["ok"] for s in body["steps"]] == [False, False, False, True]
    malformed = body["steps"][0]
    assert malformed["arguments"] == '{"active_memory_ids": [1,'
    assert malformed["error"].startswith("malformed_arguments: the arguments of ")
    assert "not valid JSON" in tool_messages(requests[1])[0]["detail"]
    assert body["steps"][1]["error"].startswith("not_found:")
    assert "content" in tool_messages(requests[2])[2]["fields"]  # validation names the field
    assert ActiveMemory.objects.filter(worker=worker, title="Launch").count() == 1


def test_an_unknown_tool_or_one_the_agent_lacks_is_an_error_the_loop_survives(
    owner_client, worker, llm
):
    requests = script(
        llm,
        calls(
            ("delete_all_memories", {}, "c1"),
            ("create_active_memory", {"title": "x", "content": "y"}, "c2"),
        ),
        text("Nothing relevant was found."),
    )

    body = owner_client.post(url(worker, "retriever"), {"query": "anything"}, format="json").json()

    assert body["status"] == "ok" and body["answer"] == "Nothing relevant was found."
    assert [(s["tool"], s["ok"]) for s in body["steps"]] == [
        ("delete_all_memories", False),
        ("create_active_memory", False),
    ]
    errors = tool_messages(requests[1])
    assert [e["error"] for e in errors] == ["unknown_tool", "unknown_tool"]
    assert "your tools are get_detailed_active_memories" in errors[0]["detail"]
    assert not ActiveMemory.objects.filter(worker=worker).exists()


def test_a_run_stops_at_max_steps_and_keeps_nothing(owner_client, worker, llm, q3, settings):
    settings.MEMORYHUB_AGENTS = settings.MEMORYHUB_AGENTS | {"max_steps": 3}
    requests = script(
        llm,
        call("get_detailed_active_memories", {"active_memory_ids": [q3.pk]}),
        call("update_active_memory", {"memory_id": q3.pk, "content": "Half done"}, "call_2"),
        call("get_detailed_active_memories", {"active_memory_ids": [q3.pk]}, "call_3"),
    )

    body = owner_client.post(url(worker, "updater"), {"message": "budget"}, format="json").json()

    assert body["status"] == "max_steps" and len(requests) == 3
    assert body["error"].startswith("stopped after 3 LLM calls without a final answer")
    assert "1 write(s) were rolled back" in body["error"]
    assert body["steps"][1]["rolled_back"] is True
    assert content_of(q3) == "Budget allocated: $50,000. Focus: social media."


def test_an_llm_slower_than_the_timeout_ends_the_run_and_writes_nothing(
    owner_client, worker, llm, settings
):
    settings.MEMORYHUB_AGENTS = settings.MEMORYHUB_AGENTS | {"timeout": 1.0}

    def slow(body):
        time.sleep(1.5)
        return text("too late")

    script(
        llm,
        call("create_active_memory", {"title": "Launch", "description": "", "content": "Mon"}),
        slow,
    )

    started = time.monotonic()
    response = owner_client.post(url(worker, "updater"), {"message": "launch"}, format="json")

    assert response.status_code == 200
    assert time.monotonic() - started < 3
    body = response.json()
    assert body["status"] == "timeout"
    assert body["error"].startswith("the run took longer than 1 s (MEMORYHUB_AGENTS_TIMEOUT)")
    assert "rolled back: nothing was written" in body["error"]
    assert not ActiveMemory.objects.filter(worker=worker, title="Launch").exists()


def test_a_slow_llm_call_times_out_on_the_llms_own_timeout(owner_client, worker, llm, settings):
    settings.MEMORYHUB_LLM = settings.MEMORYHUB_LLM | {"timeout": 1}
    settings.MEMORYHUB_AGENTS = settings.MEMORYHUB_AGENTS | {"llm_retries": 0}

    def slow(body):
        time.sleep(1.5)
        return text("too late")

    script(llm, slow)

    body = owner_client.post(url(worker, "updater"), {"message": "x"}, format="json").json()

    assert body["status"] == "timeout"
    assert body["error"].startswith("the LLM did not answer within 1 s (MEMORYHUB_LLM_TIMEOUT)")


def test_an_llm_that_fails_once_is_asked_again(owner_client, worker, llm):
    answers = iter([Response("busy", status=503), None])
    requests = script(
        llm,
        lambda body: next(answers) or text("Nothing relevant was found."),
    )

    body = owner_client.post(url(worker, "retriever"), {"query": "x"}, format="json").json()

    assert body["status"] == "ok" and len(requests) == 2


def test_an_llm_error_fails_the_run_clearly(owner_client, worker, llm):
    llm.expect_request("/v1/chat/completions", method="POST").respond_with_data("", status=400)

    body = owner_client.post(url(worker, "updater"), {"message": "x"}, format="json").json()

    assert body["status"] == "failed"
    assert body["error"].startswith("the LLM failed: LLM endpoint") and "HTTP 400" in body["error"]


# --- The memorizer -------------------------------------------------------------------------


def test_the_memorizer_consolidates_through_auto_resolve_and_chunks(
    owner_client, worker, llm, heuristic_extractor
):
    active = note(worker, "Auth work", "The AuthenticationService uses the JWTManager for tokens.")
    target = shortterm_memory_create(
        worker=worker, title="Authentication system", content="Authentication system planned."
    )
    chunk = "[Context: Authentication] The AuthenticationService uses JWTManager for tokens."
    requests = script(
        llm,
        call("auto_resolve", {"active_memory_id": active.pk, "shortterm_memory_id": target.pk}),
        call(
            "add_new_shortterm_memory_chunks",
            {"shortterm_memory_id": target.pk, "new_chunks": [{"content": chunk}]},
            "call_2",
        ),
        text(f"Consolidated into shortterm memory #{target.pk}."),
    )

    response = owner_client.post(
        url(worker, "memorizer"),
        {"active_memory_id": active.pk, "shortterm_memory_id": target.pk},
        format="json",
    )

    body = response.json()
    assert response.status_code == 200 and body["status"] == "ok", body
    assert body["result"] == {"active_memory_id": active.pk, "shortterm_memory_ids": [target.pk]}
    assert ShorttermChunk.objects.filter(memory=target, content__contains="JWTManager").exists()
    resolved = tool_messages(requests[1])[0]
    assert "JWTManager" in resolved["active_content"]
    assert f"into shortterm memory {target.pk}" in requests[0]["messages"][1]["content"]
    assert "DATA SOURCE SEPARATION" in requests[0]["messages"][0]["content"]


def test_the_memorizer_is_offered_the_most_similar_memories_and_may_create_one(
    owner_client, worker, llm, heuristic_extractor
):
    active = note(worker, "Deploy notes", "Rolled out cdn-edge to fra1 on Monday.")
    similar = shortterm_memory_create(
        worker=worker, title="CDN rollouts", content="Rolled out cdn-edge to ams1 last week."
    )

    create = call(
        "create_shortterm_memory",
        {
            "title": "Deploys",
            "summary": "fra1",
            "content": "Rolled out cdn-edge to fra1 on Monday.",
        },
    )

    requests = script(llm, create, text("Consolidated into a new shortterm memory."))

    body = owner_client.post(
        url(worker, "memorizer"), {"active_memory_id": active.pk}, format="json"
    ).json()

    assert body["status"] == "ok", body
    prompt = requests[0]["messages"][1]["content"]
    assert "Candidate shortterm memories (most similar first):" in prompt
    assert f"ID: {similar.pk}\nTitle: CDN rollouts" in prompt
    assert "Content: Rolled out cdn-edge to fra1 on Monday." in prompt  # to create from
    created = tool_messages(requests[1])[0]["id"]
    assert body["result"]["shortterm_memory_ids"] == [created]


def test_without_an_llm_the_memorizer_runs_the_deterministic_consolidation(
    owner_client, worker, settings, heuristic_extractor
):
    settings.MEMORYHUB_LLM = settings.MEMORYHUB_LLM | {"url": None}
    settings.MEMORYHUB_MIGRATION = settings.MEMORYHUB_MIGRATION | {"min_update_count": 0}
    active = note(worker, "Deploy notes", "Rolled out cdn-edge to fra1 on Monday.")

    response = owner_client.post(
        url(worker, "memorizer"), {"active_memory_id": active.pk}, format="json"
    )

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["steps"] == [] and body["llm_calls"] == 0
    assert body["answer"].startswith("No LLM is configured (MEMORYHUB_LLM_URL), so the memorizer")
    assert body["result"]["fallback"] == "deterministic"
    assert [o["outcome"] for o in body["result"]["outcomes"]] == ["created"]
    assert f"consolidation run {body['result']['consolidation_run_id']}" in body["answer"]


# --- The retriever -------------------------------------------------------------------------


def test_the_retriever_answers_and_lists_the_memories_it_used(
    owner_client, worker, llm, heuristic_extractor
):
    memory = shortterm_memory_create(
        worker=worker,
        title="Token handling",
        content="JWT tokens expire after 24 hours; the middleware refreshes them.",
    )

    def answer(body):
        hits = tool_messages(body)[0]["results"]["shortterm"]
        return text(f"Tokens expire after 24 hours [shortterm:{hits[0]['memory_id']}].")

    requests = script(
        llm,
        call("retrieve", {"query": "when do JWT tokens expire", "tiers": ["shortterm"]}),
        answer,
    )

    response = owner_client.post(
        url(worker, "retriever"), {"query": "How did I set up token expiry?"}, format="json"
    )

    body = response.json()
    assert response.status_code == 200 and body["status"] == "ok", body
    assert body["answer"] == f"Tokens expire after 24 hours [shortterm:{memory.pk}]."
    assert body["memories_used"] == [
        {"tier": "shortterm", "id": memory.pk, "title": "Token handling"}
    ]
    prompt = requests[0]["messages"][1]["content"]
    assert prompt.startswith("Search Query: How did I set up token expiry?")
    assert "Seed 003's tier rules read this query as: shortterm" in prompt
    assert f"ID: {memory.pk}\nTitle: Token handling" in prompt


def test_a_retriever_answer_without_citations_lists_what_the_tools_returned(
    owner_client, worker, llm, q3
):
    script(
        llm,
        call("get_detailed_active_memories", {"active_memory_ids": [q3.pk]}),
        text("The Q3 budget is $50,000 [longterm:424242]."),
    )

    body = owner_client.post(
        url(worker, "retriever"), {"query": "Q3 budget?"}, format="json"
    ).json()

    assert body["memories_used"] == [{"tier": "active", "id": q3.pk, "title": "Q3 Marketing Plan"}]
    assert body["answer"].endswith(f"Memories used: [active:{q3.pk}] Q3 Marketing Plan")
    assert body["result"]["cited"] is False
    assert body["result"]["unverified_citations"] == ["longterm:424242"]


# --- No LLM, isolation, the run list --------------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "payload"), [("updater", {"message": "x"}), ("retriever", {"query": "x"})]
)
def test_without_an_llm_the_updater_and_retriever_answer_503(
    owner_client, worker, settings, agent, payload
):
    settings.MEMORYHUB_LLM = settings.MEMORYHUB_LLM | {"url": None}

    response = owner_client.post(url(worker, agent), payload, format="json")

    assert response.status_code == 503
    body = response.json()
    assert body["error"] == "no_llm" and body["fields"] == {}
    assert body["detail"].startswith("no LLM configured: set MEMORYHUB_LLM_URL")
    assert not AgentRun.objects.exists()


@pytest.mark.parametrize(
    ("agent", "payload"),
    [
        ("updater", {"message": "x"}),
        ("memorizer", {"active_memory_id": 1}),
        ("retriever", {"query": "x"}),
    ],
)
def test_another_workers_token_gets_404(other_client, worker, llm, agent, payload):
    script(llm, text("never asked"))

    response = other_client.post(url(worker, agent), payload, format="json")

    assert response.status_code == 404
    assert other_client.get(url(worker, "runs")).status_code == 404
    assert not llm.log and not AgentRun.objects.exists()


def test_anonymous_requests_are_refused(anon_client, worker):
    assert (
        anon_client.post(url(worker, "updater"), {"message": "x"}, format="json").status_code == 401
    )


def test_another_workers_memory_is_not_found(owner_client, worker, other_worker, llm):
    theirs = note(other_worker, "Theirs", "secret")
    script(llm, text("never asked"))

    response = owner_client.post(
        url(worker, "memorizer"), {"active_memory_id": theirs.pk}, format="json"
    )

    assert response.status_code == 404 and not llm.log


def test_a_request_without_its_message_names_the_field(owner_client, worker, llm):
    response = owner_client.post(url(worker, "updater"), {}, format="json")

    assert response.status_code == 400
    assert response.json()["fields"] == {"message": "This field is required."}


def test_the_runs_list_shows_the_workers_runs_newest_first(owner_client, worker, llm, q3):
    script(llm, text("Found nothing."))
    owner_client.post(url(worker, "retriever"), {"query": "a"}, format="json")
    owner_client.post(url(worker, "retriever"), {"query": "b"}, format="json")

    listing = owner_client.get(url(worker, "runs")).json()

    assert [r["input"]["query"] for r in listing["results"]] == ["b", "a"]
    run_id = listing["results"][0]["id"]
    assert owner_client.get(f"{url(worker, 'runs')}/{run_id}").json()["answer"] == "Found nothing."
    assert owner_client.get(url(worker, "runs") + "?agent=updater").json()["results"] == []
