"""The tier browser in Chromium: a staff member logs in, opens a worker, switches tabs,
expands a memory, draws an entity's neighbourhood and searches. Screenshots land in
test-artifacts/browser-*.png."""

import re

import pytest

from review.models import MergeConflict
from tests.browser import screenshot, wait_for_htmx
from tests.factories import TASK_TEMPLATE, StaffFactory, WorkerFactory
from tiers.services.active import active_memory_create, active_memory_update_sections
from tiers.services.shortterm import shortterm_memory_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _planner():
    """A worker with something in every tier, worded like an agent's notes."""
    planner = WorkerFactory(
        name="planner", description="Plans the auth rollout and tracks who owns what"
    )
    WorkerFactory(name="coder", description="Writes the code the planner asks for")
    auth = active_memory_create(
        worker=planner,
        title="Roll out JWT auth",
        description="Replace session cookies with JWT tokens across the gateway",
        template_yaml=TASK_TEMPLATE,
        initial_sections={
            "objective": "Move **every** service behind the auth gateway to JWT tokens.",
            "progress": "- Login endpoint issues tokens\n- Refresh endpoint in review",
            "notes": "Alice Chen signs off on the key rotation. <script>alert(1)</script>",
        },
    )
    for text in ("- Login endpoint issues tokens\n- Refresh endpoint merged", "- Both merged"):
        active_memory_update_sections(memory=auth, sections={"progress": text})
    active_memory_create(
        worker=planner,
        title="Quarterly planning",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "Agree the Q3 roadmap with Acme Corp."},
    )
    shortterm_memory_create(
        worker=planner,
        title="Auth gateway ownership",
        summary="Who owns the gateway, what it runs on",
        chunks=[
            {
                "content": "Alice Chen owns the auth gateway. The auth gateway uses JWT tokens.",
                "metadata": {"source": "standup", "day": "2025-05-02"},
            },
            {"content": "Alice Chen works at Acme Corp. Bob Stone works at Acme Corp."},
            {"content": "Redis runs on Kubernetes. The auth gateway uses Redis for sessions."},
        ],
    )
    shortterm_memory_create(
        worker=planner,
        title="Billing migration",
        content="Dana Park leads the billing migration. The billing service uses PostgreSQL.",
    )
    MergeConflict.objects.create(
        worker=planner, section_id="progress", section_content="Refresh endpoint dropped"
    )
    return planner


def _log_in(page, live_server, next_url: str):
    page.goto(f"{live_server.url}{next_url}")
    assert "/accounts/login/" in page.url
    page.fill("#id_username", "alice")
    page.fill("#id_password", "correct horse battery staple")
    page.click("button[type=submit]")


def test_staff_browse_a_workers_tiers(live_server, page, settings):
    StaffFactory(username="alice")
    planner = _planner()
    # The capacity trigger (off in the test settings) on, once the data is in.
    settings.MEMORYHUB_MIGRATION = {
        **settings.MEMORYHUB_MIGRATION,
        "capacity_updates": 3,
        "capacity_memories": 4,
    }
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    _log_in(page, live_server, "/browse/")
    page.wait_for_selector("h1:text('Tier browser')")
    row = page.locator("tr[data-worker=planner]")
    assert row.locator("td[data-col=active]").inner_text() == "2"
    assert row.locator("td[data-col=shortterm]").inner_text() == "2"
    assert row.locator("td[data-col=chunks]").inner_text() == "4"
    assert row.locator("td[data-col=conflicts]").inner_text() == "1"
    screenshot(page, "browser-workers")

    # The worker page opens on the Active tab: sections as markdown, counts, capacity.
    row.locator("a.bt-worker-name").click()
    page.wait_for_selector("h1:text('planner')")
    assert page.locator("#tab-panel").get_attribute("data-tab") == "active"
    card = page.locator("article.bt-memory", has_text="Roll out JWT auth")
    progress = card.locator("[data-section=progress]")
    assert progress.locator(".bt-update-count").inner_text() == "2 updates"
    assert page.locator(".bt-markdown strong", has_text="every").count() == 1
    assert page.locator("#capacity .bt-capacity-figure").inner_text() == "67%"  # 2 of 3 updates
    screenshot(page, "browser-active")

    # Shortterm, by htmx: the tab panel changes, the page does not reload.
    wait_for_htmx(page)
    page.evaluate("window.__same_page = true")
    page.click("#tab-shortterm")
    page.wait_for_selector("#tab-panel[data-tab=shortterm]")
    assert re.search(r"\?tab=shortterm$", page.url)
    assert page.evaluate("window.__same_page") is True
    memory = page.locator("details.bt-st", has_text="Auth gateway ownership")
    memory.locator("summary").click()
    memory.locator(".bt-chunk").first.wait_for()
    chunks = memory.locator(".bt-chunk")
    assert chunks.count() == 3
    assert chunks.nth(0).locator(".bt-chunk-order").inner_text() == "#0"
    assert "standup" in chunks.nth(0).locator(".bt-chunk-meta").inner_text()
    assert "Redis runs on Kubernetes" in chunks.nth(2).inner_text()
    screenshot(page, "browser-shortterm")

    # Graph: pick an entity, see its neighbourhood drawn as SVG, widen it, recentre it.
    page.click("#tab-graph")
    page.wait_for_selector("#tab-panel[data-tab=graph]")
    # Typing before htmx has processed the swapped-in panel would go unheard (no request).
    page.wait_for_function(
        "(() => { const e = document.querySelector('#id_prefix');"
        " return e && e['htmx-internal-data'] && e['htmx-internal-data'].initHash; })()"
    )
    page.fill("#id_prefix", "ali")
    page.wait_for_function(
        "document.querySelectorAll('#entity-list [data-entity-id]').length === 1"
    )
    page.fill("#id_prefix", "")
    page.wait_for_function("document.querySelectorAll('#entity-list [data-entity-id]').length > 5")
    page.click("#entity-list a:has-text('Alice Chen')")
    alice_id = page.locator("#entity-list a:has-text('Alice Chen')").get_attribute("data-entity-id")
    page.wait_for_selector("svg.bt-graph .bt-node")
    nodes = page.locator("svg.bt-graph .bt-node")
    assert nodes.count() == 3  # Alice, the auth gateway, Acme Corp
    labels = page.locator("svg.bt-graph .bt-node-label").all_text_contents()
    assert {"Alice Chen", "auth gateway", "Acme Corp"} == set(labels)
    edges = page.locator("svg.bt-graph .bt-edge-label").all_text_contents()
    assert {"OWNS", "WORKS_FOR"} <= set(edges)
    assert "entity=" in page.url and "tab=graph" in page.url
    assert page.locator("#entity-list .is-selected").inner_text().startswith("Alice Chen")
    page.click(".bt-hops a:has-text('2 hops')")
    page.wait_for_function("document.querySelectorAll('svg.bt-graph .bt-node').length > 3")
    assert page.locator(".bt-nb-entities tbody tr").count() == nodes.count()
    screenshot(page, "browser-graph")
    page.locator("svg.bt-graph .bt-node", has_text="Acme Corp").click()
    page.wait_for_selector(".bt-nb-head h2:has-text('Acme Corp')")
    page.wait_for_selector("svg.bt-graph .bt-node.is-centre:has-text('Acme Corp')")
    assert re.search(r"entity=(\d+)", page.url).group(1) != alice_id
    # The table under the drawing recentres it too (the keyboard's way).
    page.click(".bt-nb-entities a:has-text('Alice Chen')")
    page.wait_for_selector("svg.bt-graph .bt-node.is-centre:has-text('Alice Chen')")
    assert re.search(r"entity=(\d+)", page.url).group(1) == alice_id

    # Search: hits with their component scores replace the results panel.
    page.fill("input[name=q]", "who owns the auth gateway")
    page.click(".bt-search button[type=submit]")
    page.wait_for_selector(".bt-hit")
    first = page.locator(".bt-hit").first
    assert "Auth gateway ownership" in first.locator(".bt-hit-title").inner_text()
    assert "Alice Chen owns the auth gateway" in first.locator(".bt-hit-text").inner_text()
    for score in ("fused", "similarity", "bm25", "vector_rank", "bm25_rank"):
        assert first.locator(f"[data-score={score}] .bt-value").inner_text() != ""
    assert float(first.locator("[data-score=fused] .bt-value").inner_text()) > 0
    assert page.evaluate("window.__same_page") is True
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "browser-search")

    # A bad query is a message on the page, not an error page.
    page.fill("input[name=q]", "   ")
    page.click(".bt-search button[type=submit]")
    page.wait_for_selector("#search-results [role=alert]")
    assert errors == []
    assert planner.pk  # the worker the pages were about
