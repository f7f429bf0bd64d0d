"""A reviewer undoes a decision in the browser."""

from io import StringIO

import pytest
from django.core.management import call_command

from review.models import ConflictResolution, MergeConflict
from tests.browser import screenshot
from tests.factories import make_reviewer
from tiers.models import ShorttermChunk

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_reviewer_undoes_a_decision_and_the_conflict_is_pending_again(live_server, page):
    make_reviewer("rita")  # (the Reviewers group is recreated: the database was flushed)

    page.goto(f"{live_server.url}/review/decisions/")
    assert "/accounts/login/" in page.url
    page.fill("#id_username", "rita")
    page.fill("#id_password", "correct horse battery staple")
    page.click("button[type=submit]")
    page.wait_for_selector("h1:text('Decision log')")
    assert "No decisions yet" in page.locator("#decision-log").inner_text()
    screenshot(page, "decisions-empty")

    call_command("seed_demo", stdout=StringIO())
    accepted = ConflictResolution.objects.get(decision="accept_incoming")
    chunk_id = accepted.before["chunk_id"]
    page.reload()
    entries = page.locator("article.dl-entry")
    assert entries.count() == 2
    entry = page.locator(f"#decision-{accepted.pk}")
    assert "Accept incoming" in entry.inner_text()
    assert entry.locator("del").inner_text() == "June"
    assert entry.locator("ins").inner_text() == "September"
    screenshot(page, "decisions-log")

    # filters swap the list in place (htmx) and keep the address
    page.select_option("#id_decision", "keep_existing")
    page.wait_for_function("document.querySelectorAll('article.dl-entry').length === 1")
    assert "decision=keep_existing" in page.url
    page.select_option("#id_decision", "")
    page.wait_for_function("document.querySelectorAll('article.dl-entry').length === 2")

    page.once("dialog", lambda dialog: dialog.accept())
    entry.locator("button:text('Undo')").click()
    page.wait_for_selector(f"#decision-{accepted.pk}[data-state=undone]")
    assert "Undone by rita" in page.locator(f"#decision-{accepted.pk}").inner_text()
    assert "is pending again" in page.locator(f"#decision-{accepted.pk} [role=status]").inner_text()
    screenshot(page, "decisions-undone")

    conflict = MergeConflict.objects.get(pk=accepted.conflict_id)
    assert conflict.status == "pending"
    assert ShorttermChunk.objects.get(pk=chunk_id).content == accepted.before["content"]

    page.click("text=Detector precision")
    page.wait_for_selector("h1:text('Detector precision')")
    assert page.locator("tr[data-reason=value_replaced] td[data-col=decisions]").inner_text() == "1"
    screenshot(page, "decisions-detector")
