"""Cross-tier retrieval and the combined context block (services and HTTP)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from consolidation.services.shortterm_to_longterm import promotion_check
from memoryhub.errors import DomainError
from tests.factories import TASK_TEMPLATE
from tiers.models import MemoryUsage
from tiers.retrieval import build_context, choose_tiers, retrieve
from tiers.services.active import active_memory_create
from tiers.services.shortterm import shortterm_memory_create
from tiers.services.usage import usage_record

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "query, first",
    [
        ("what am I working on right now?", "active"),
        ("current task status", "active"),
        ("how did we fix the login bug yesterday?", "shortterm"),
        ("what errors did I encounter recently", "shortterm"),
        ("what are our general authentication principles?", "longterm"),
        ("how have we historically handled refunds", "longterm"),
        ("Maria's favourite tea", "shortterm"),
    ],
)
def test_auto_tier_selection_follows_the_seed(query, first):
    tiers, reason = choose_tiers(query)
    assert tiers[0] == first and reason


@pytest.fixture
def memory_of_three_tiers(worker):
    active = active_memory_create(
        worker=worker,
        title="Sprint 12",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "Migrate the billing service to MySQL"},
    )
    recent = shortterm_memory_create(
        worker=worker, title="Login bug", content="We fixed the login bug by rotating JWT keys."
    )
    old = shortterm_memory_create(
        worker=worker,
        title="Auth principles",
        content="Authentication principle: every service verifies JWT signatures itself.",
    )
    promotion_check(memory=old, manual=True, now=timezone.now() - timedelta(days=30))
    return active, recent, old


def test_retrieve_groups_results_per_tier(worker, memory_of_three_tiers):
    active, recent, old = memory_of_three_tiers
    result = retrieve(worker=worker, query="billing service MySQL", tiers=["active"])
    assert result.tiers == ["active"]
    assert result.active[0]["active_memory_id"] == active.pk
    assert result.active[0]["section_id"] == "objective"
    both = retrieve(worker=worker, query="JWT keys", tiers="shortterm,longterm", limit=5)
    assert both.tiers == ["shortterm", "longterm"]
    assert {h.memory_id for h in both.shortterm} >= {recent.pk}
    assert {h.memory_id for h in both.longterm} == {old.pk}
    general = retrieve(worker=worker, query="what are our general authentication principles?")
    assert general.tiers[0] == "longterm" and general.longterm[0].memory_id == old.pk
    with pytest.raises(DomainError) as error:
        retrieve(worker=worker, query="x", tiers=["archive"])
    assert "tiers" in error.value.fields


def test_auto_falls_back_to_longterm_when_nothing_relevant(worker, settings):
    old = shortterm_memory_create(worker=worker, title="Tea", content="Maria drinks green tea.")
    promotion_check(memory=old, manual=True)
    settings.MEMORYHUB_RETRIEVAL = {**settings.MEMORYHUB_RETRIEVAL, "relevance_floor": 1.01}
    result = retrieve(worker=worker, query="green tea")
    assert result.tiers[-1] == "longterm" and "longterm too" in result.reason
    assert result.longterm


def test_context_block_has_recent_and_past_sections_and_no_duplicates(worker):
    old = shortterm_memory_create(
        worker=worker, title="Auth principles", content="Every service verifies JWT signatures."
    )
    promotion_check(memory=old, manual=True)
    shortterm_memory_create(worker=worker, title="Deploy", content="Deployed billing on Friday.")
    context = build_context(worker=worker, query="JWT verification", max_short=5, max_long=5)
    markdown = context["markdown"]
    assert "## Recent context" in markdown and "[Deploy]" in markdown
    # the promoted memory is still in the recent list: its longterm copy is not repeated
    assert markdown.count("Every service verifies JWT signatures.") <= 1
    assert context["tokens"] > 0
    assert {i["section"] for i in context["items"]} == {"recent"}


def test_context_past_experience_has_relevance_and_full_content_when_confident(worker):
    old = shortterm_memory_create(
        worker=worker, title="Auth principles", content="Every service verifies JWT signatures."
    )
    usage_record(worker=worker, memory_id=old.pk, kind="mark_important")
    promotion_check(memory=old, manual=True)
    context = build_context(worker=worker, query="JWT", max_short=0, max_long=5)
    assert "## Relevant past experience" in context["markdown"]
    assert "(relevance: " in context["markdown"]


def test_token_budget_drops_the_least_relevant_first(worker):
    for i in range(12):
        shortterm_memory_create(
            worker=worker, title=f"note {i}", content=f"Unrelated remark number {i} about lunch."
        )
    relevant = shortterm_memory_create(
        worker=worker, title="Budget", content="The Q3 marketing budget is $50,000."
    )
    MemoryUsage.objects.create(memory=relevant, worker=worker, importance=9)
    full = build_context(worker=worker, query="Q3 marketing budget", max_short=13)
    small = build_context(worker=worker, query="Q3 marketing budget", max_short=13, token_budget=60)
    assert small["tokens"] <= 60 < full["tokens"]
    assert small["dropped"] and "$50,000" in small["markdown"]
    kept = [i["relevance"] for i in small["items"]]
    assert min(kept) >= max(i["relevance"] for i in small["dropped"])
    with pytest.raises(DomainError):
        build_context(worker=worker, query="x", token_budget=3)


def test_retrieve_and_context_over_http(worker, owner_client, other_client, memory_of_three_tiers):
    base = f"/api/v1/workers/{worker.pk}"
    response = owner_client.post(
        f"{base}/retrieve", {"query": "JWT keys", "session_id": "s1"}, format="json"
    )
    assert response.status_code == 200, response.json()
    data = response.json()
    assert set(data["results"]) == {"active", "shortterm", "longterm"} and data["reason"]
    assert MemoryUsage.objects.filter(sessions__contains=["s1"]).exists()
    bad = owner_client.post(f"{base}/retrieve", {"query": "x", "tiers": ["nope"]}, format="json")
    assert bad.status_code == 400 and "tiers" in bad.json()["fields"]
    context = owner_client.post(
        f"{base}/context", {"query": "JWT", "token_budget": 200}, format="json"
    )
    assert context.status_code == 200 and context.json()["tokens"] <= 200
    assert other_client.post(f"{base}/retrieve", {"query": "x"}, format="json").status_code == 404
    assert other_client.post(f"{base}/context", {"query": "x"}, format="json").status_code == 404


def test_context_dates_a_memory_by_when_it_was_said(worker):
    shortterm_memory_create(
        worker=worker,
        title="Session 1",
        metadata={"session_date": "2023-05-08"},
        content="Caroline: I went to a support group yesterday.",
    )
    shortterm_memory_create(worker=worker, title="Notes", content="Deployed billing on Friday.")
    markdown = build_context(worker=worker, query="support group", max_short=5, max_long=0)[
        "markdown"
    ]
    assert "[Session 1] (said Monday 8 May 2023) Caroline: I went" in markdown
    assert f"[Notes] ({timezone.now():%Y-%m-%d}" in markdown  # no date said: when stored
