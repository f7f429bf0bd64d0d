"""A reviewer works through the queue in the browser: by mouse with an edited merge, then
by keyboard alone."""

from io import StringIO

import pytest
from django.core.management import call_command

from review.models import MergeConflict
from tests.browser import screenshot
from tests.factories import make_reviewer
from tiers.models import ShorttermChunk

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _log_in(page, live_server, path):
    page.goto(f"{live_server.url}{path}")
    page.fill("#id_username", "rita")
    page.fill("#id_password", "correct horse battery staple")
    page.click("button[type=submit]")
    page.wait_for_load_state()  # the page's scripts (the keyboard's among them) have run


def test_a_reviewer_merges_with_an_edited_text_and_the_next_conflict_loads(live_server, page):
    make_reviewer()
    _log_in(page, live_server, "/review/")
    page.wait_for_selector("h1:text('Review queue')")
    assert "No conflict waits for review" in page.inner_text("#queue-list")
    screenshot(page, "review-queue-empty")

    call_command("seed_demo", stdout=StringIO())
    pending = MergeConflict.objects.filter(status="pending").count()
    assert pending >= 4
    page.reload()
    page.wait_for_function("document.querySelector('#pending-badge').textContent.trim() !== ''")
    assert page.inner_text("#pending-badge").strip() == str(pending)
    assert page.locator("tr[data-conflict]").count() == pending
    screenshot(page, "review-queue")

    page.locator("tr[data-conflict] a").first.click()
    page.wait_for_selector(".rq-panel")
    page.wait_for_load_state("load")
    page.evaluate("window.sameDocument = true")
    first_id = int(page.get_attribute(".rq-panel", "data-conflict"))
    assert page.locator(".rq-diff .d-del, .rq-diff .d-del-num").count() > 0
    screenshot(page, "review-conflict")

    conflict = MergeConflict.objects.get(pk=first_id)
    chunk_id = conflict.conflicting_chunks[0]["chunk_id"]
    page.click(".rq-merge summary")
    merged = ShorttermChunk.objects.get(pk=chunk_id).content + " Reviewed by Rita."
    page.fill("#rq-merge-text", merged)
    page.wait_for_function(  # the live diff preview follows the edit
        "document.querySelector('#merge-preview .d-ins')"
        " && document.querySelector('#merge-preview').textContent.includes('Rita')"
    )
    screenshot(page, "review-merge")
    page.fill("#rq-note", "kept both facts")
    page.click("button[data-key=merge]")
    page.wait_for_function(f"document.querySelector('.rq-panel').dataset.conflict !== '{first_id}'")
    assert "merge with edited text" in page.inner_text(".rq-flash")
    assert f"/review/{first_id}/" not in page.url  # the address follows the conflict shown
    assert page.evaluate("window.sameDocument") is True  # loaded in place, no page reload
    assert ShorttermChunk.objects.get(pk=chunk_id).content == merged
    conflict.refresh_from_db()
    assert conflict.status == "resolved" and conflict.resolution.note == "kept both facts"


def _shown(page, conflict):
    """Wait until the conflict's panel is in place and htmx has wired it up (it binds new
    content once it settles; the page ignores keys until then)."""
    page.wait_for_selector(f".rq-panel[data-conflict='{conflict.pk}']")
    page.wait_for_function("!window.reviewKeysBusy()")


def test_a_reviewer_decides_by_keyboard_alone(live_server, page):
    make_reviewer()
    call_command("seed_demo", stdout=StringIO())
    pending = list(MergeConflict.objects.filter(status="pending").order_by("-created_at", "-id"))
    _log_in(page, live_server, f"/review/{pending[0].pk}/")
    page.wait_for_selector(".rq-panel")
    page.wait_for_load_state("load")  # htmx binds the page once it has loaded
    page.evaluate("window.sameDocument = true")  # survives only if nothing reloads the page

    page.keyboard.press("n")  # next
    _shown(page, pending[1])
    page.keyboard.press("p")  # previous
    _shown(page, pending[0])

    page.keyboard.press("k")  # keep existing: one key, and the next conflict is there
    _shown(page, pending[1])
    page.keyboard.press("d")  # not a conflict
    _shown(page, pending[2])
    page.keyboard.press("m")  # merge: the editor opens with a proposed text
    page.keyboard.type(" Confirmed.")
    page.keyboard.press("Control+Enter")
    _shown(page, pending[3])
    assert page.inner_text("#pending-badge").strip() == str(len(pending) - 3)  # refreshed at once
    assert page.evaluate("window.sameDocument") is True  # five keys, not one page load
    assert page.url.endswith(f"/review/{pending[3].pk}/")
    screenshot(page, "review-keyboard")

    decided = {
        c.pk: c.resolution.decision
        for c in MergeConflict.objects.filter(pk__in=[c.pk for c in pending[:3]]).select_related(
            "resolution"
        )
    }
    assert decided == {
        pending[0].pk: "keep_existing",
        pending[1].pk: "dismiss",
        pending[2].pk: "merge_edited",
    }
    chunk_id = pending[2].conflicting_chunks[0]["chunk_id"]
    assert ShorttermChunk.objects.get(pk=chunk_id).content.endswith("Confirmed.")
