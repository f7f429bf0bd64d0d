"""The tier browser's longterm pages in Chromium: a staff member opens a source's history
(the timeline draws a bar per version), picks a date on the Longterm tab (the version
valid then shows, by htmx), then now again, and looks at a memory's promotion score.
Screenshots land in test-artifacts/longterm-*.png."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from consolidation.services.shortterm_to_longterm import promotion_check
from tests.browser import screenshot, wait_for_htmx
from tests.factories import StaffFactory, WorkerFactory
from tiers.services.shortterm import shortterm_chunks_update, shortterm_memory_create
from tiers.services.usage import usage_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OLD = "The billing service runs on PostgreSQL 14 in eu-west-1, owned by Tom Becker."
NEW = "The billing service runs on PostgreSQL 16 in eu-central-1, owned by Priya Natarajan."
KEPT = "Invoices are generated as PDF every night and mailed to finance."


def _ledger():
    """A worker whose billing notes were promoted two days ago, changed, and promoted
    again a day ago; and a note never scored."""
    ledger = WorkerFactory(name="ledger", description="Keeps track of the billing platform")
    now = timezone.now()
    first, second = now - timedelta(days=2), now - timedelta(days=1)
    memory = shortterm_memory_create(
        worker=ledger,
        title="Billing platform",
        summary="Where billing runs and who owns it",
        chunks=[{"content": OLD}, {"content": KEPT}],
    )
    for hours, session in ((0, "s1"), (3, "s2")):
        usage_record(
            worker=ledger,
            memory_id=memory.pk,
            kind="access",
            session_id=session,
            at=first - timedelta(hours=6 - hours),
        )
    usage_record(worker=ledger, memory_id=memory.pk, kind="mark_important", at=first)
    assert promotion_check(memory=memory, now=first).promoted
    chunk = memory.chunks.get(chunk_order=0)
    shortterm_chunks_update(memory=memory, updates=[{"chunk_id": chunk.pk, "new_content": NEW}])
    usage_record(worker=ledger, memory_id=memory.pk, kind="confirm", at=second)
    assert promotion_check(memory=memory, now=second).versions_created
    shortterm_memory_create(worker=ledger, title="Fresh note", content="Nothing to promote yet.")
    return ledger, memory, first, second


def _log_in(page, live_server, next_url: str):
    page.goto(f"{live_server.url}{next_url}")
    assert "/accounts/login/" in page.url
    page.fill("#id_username", "alice")
    page.fill("#id_password", "correct horse battery staple")
    page.click("button[type=submit]")


def _local(moment) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


def test_the_history_page_draws_a_bar_per_version(live_server, page):
    StaffFactory(username="alice")
    ledger, memory, _, _ = _ledger()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    _log_in(page, live_server, f"/browse/{ledger.pk}/longterm/{memory.pk}/history")
    page.wait_for_selector("h1:text('Billing platform')")
    timeline = page.locator("svg.lt-timeline")
    assert timeline.locator("rect.lt-bar").count() == 3  # two versions of chunk 0, one of 1
    assert timeline.locator("g.lt-lane").count() == 2
    current = timeline.locator("g.lt-version.is-current")
    assert current.count() == 2
    assert "current" in current.first.locator("text").text_content()
    # the bars of chunk 0 follow each other: the first ends where the second starts
    lane = timeline.locator("g.lt-version[data-lane='0'] rect.lt-bar")
    first_box, second_box = lane.nth(0).bounding_box(), lane.nth(1).bounding_box()
    assert first_box["width"] > 10 and second_box["width"] > 10
    assert abs(first_box["x"] + first_box["width"] - second_box["x"]) < 2
    # higher confidence, more opaque: every bar's opacity is a visible fraction
    opacities = [
        float(o)
        for o in timeline.locator("rect.lt-bar").evaluate_all(
            "bars => bars.map(b => b.getAttribute('fill-opacity'))"
        )
    ]
    assert all(0.25 <= o <= 1 for o in opacities)
    assert page.locator("table.lt-versions tbody tr").count() == 3
    change = page.locator("article.lt-change")
    assert change.count() == 1
    assert change.locator("[data-side=before] .d-del-num, [data-side=before] .d-del").count() >= 1
    inserted = change.locator("[data-side=after] .d-ins").all_inner_texts()
    assert {"Priya", "Natarajan"} <= set(inserted)
    screenshot(page, "longterm-history")
    assert errors == []


def test_the_date_picker_shows_what_was_valid_then(live_server, page):
    StaffFactory(username="alice")
    ledger, memory, first, second = _ledger()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    _log_in(page, live_server, f"/browse/{ledger.pk}/")
    page.wait_for_selector("h1:text('ledger')")
    wait_for_htmx(page)
    page.evaluate("window.__same_page = true")
    page.click("#tab-longterm")
    page.wait_for_selector("#tab-panel[data-tab=longterm]")
    assert page.locator("[data-count=longterm-current]").inner_text() == "2"
    assert page.locator("[data-count=longterm-versions]").inner_text() == "3"
    contents = page.locator(".lt-content").all_inner_texts()
    assert NEW in contents and OLD not in contents
    screenshot(page, "longterm-tab")

    # Between the two promotions: the first version of chunk 0, by htmx.
    page.fill("#id_as_of", _local(first + timedelta(hours=12)))
    page.click(".lt-asof button[type=submit]")
    page.wait_for_selector("[data-showing=as-of]")
    contents = page.locator(".lt-content").all_inner_texts()
    assert OLD in contents and NEW not in contents and KEPT in contents
    assert "as_of=" in page.url and "tab=longterm" in page.url
    assert page.evaluate("window.__same_page") is True
    screenshot(page, "longterm-as-of")

    # Now: the current version again.
    page.fill("#id_as_of", _local(timezone.now()))
    page.click(".lt-asof button[type=submit]")
    page.wait_for_function(
        "[...document.querySelectorAll('.lt-content')].some(e => e.textContent.includes('16'))"
    )
    contents = page.locator(".lt-content").all_inner_texts()
    assert NEW in contents and OLD not in contents

    # A bad date (typed into the address, the picker cannot make one) is a form error.
    page.goto(f"{live_server.url}/browse/{ledger.pk}/?tab=longterm&as_of=31-02-2026")
    assert page.locator(".lt-asof [role=alert]").inner_text().startswith("Enter a date")

    # The source's history is one click away.
    page.goto(f"{live_server.url}/browse/{ledger.pk}/?tab=longterm")
    page.locator(".lt-history-link").first.click()
    page.wait_for_selector("svg.lt-timeline")
    assert re.search(rf"/longterm/{memory.pk}/history$", page.url)
    assert errors == []


def test_the_promotion_score_beside_a_memorys_chunks(live_server, page):
    StaffFactory(username="alice")
    ledger, memory, _, _ = _ledger()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    _log_in(page, live_server, f"/browse/{ledger.pk}/?tab=shortterm")
    page.wait_for_selector("#tab-panel[data-tab=shortterm]")
    billing = page.locator("details.bt-st", has_text="Billing platform")
    billing.locator("summary").click()
    billing.locator("svg.lt-score-chart").wait_for()
    bars = billing.locator("svg.lt-score-chart g.lt-score")
    assert bars.count() == 5  # four components and the composite
    assert billing.locator("[data-decided-by]").get_attribute("data-decided-by") == (
        "trigger_important"
    )
    assert billing.locator("svg.lt-spark circle").count() == 2
    billing.scroll_into_view_if_needed()
    screenshot(page, "longterm-score")

    # Promote a fresh note by hand: its score appears in place.
    fresh = page.locator("details.bt-st", has_text="Fresh note")
    fresh.locator("summary").click()
    fresh.locator(".lt-not-scored").wait_for()
    fresh.locator("button.lt-promote").click()
    fresh.locator("[data-promote-result=ok]").wait_for()
    assert fresh.locator("[data-decided-by]").get_attribute("data-decided-by") == "manual"
    assert errors == []
