"""The decision log, undo, and the detector's precision page."""

import datetime as dt
import re

import pytest
from django.test import Client
from django.utils import timezone

from memoryhub.errors import ConflictError
from memoryhub.services.workers import token_issue
from review.models import ConflictResolution, MergeConflict, UndoneResolution
from review.selectors.decisions import detector_precision
from review.services.conflicts import conflict_create, conflict_resolve, conflict_undo
from tests import factories
from tests.factories import WorkerFactory
from tiers.models import ShorttermChunk, ShorttermMemory
from tiers.services.shortterm import (
    shortterm_chunks_add,
    shortterm_chunks_update,
)

pytestmark = pytest.mark.django_db

EXISTING = "The Q3 budget for the marketing team is $50,000."
INCOMING = "The Q3 budget for the marketing team is $65,000."
LOG = "/review/decisions/"
DETECTOR = "/review/detector/"
XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def make_conflict(worker, *, codes=("number_changed",), **kwargs) -> MergeConflict:
    """A pending conflict between a stored chunk and an active section."""
    reasons = [{"code": code, "detail": code, "incoming": None} for code in codes]
    return factories.make_conflict(worker, reasons=reasons, **kwargs)


def decided(worker, decision: str, *, user=None, note: str = "", **kwargs) -> ConflictResolution:
    conflict = make_conflict(worker, **kwargs)
    edited = (
        "The Q3 marketing budget went from $50,000 to $65,000."
        if decision == "merge_edited"
        else None
    )
    conflict_resolve(conflict=conflict, decision=decision, user=user, note=note, edited_text=edited)
    return ConflictResolution.objects.get(conflict=conflict)


def chunk_of(conflict) -> ShorttermChunk:
    return ShorttermChunk.objects.get(pk=conflict.conflicting_chunks[0]["chunk_id"])


def undo_url(resolution_id: int) -> str:
    return f"/review/decisions/{resolution_id}/undo"


# --- access ---------------------------------------------------------------------------


def test_it_sends_anonymous_visitors_to_log_in(client, worker):
    resolution = decided(worker, "accept_incoming")
    for response in (
        client.get(LOG),
        client.get(DETECTOR),
        client.post(undo_url(resolution.pk)),
    ):
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert ConflictResolution.objects.filter(pk=resolution.pk).exists()


def test_it_shows_the_log_read_only_without_the_permission(reader_client, worker):
    resolution = decided(worker, "accept_incoming")
    page = reader_client.get(LOG).content.decode()
    assert f'data-decision-id="{resolution.pk}"' in page
    assert "Undo</button>" not in page and "needs the Reviewers group" in page
    response = reader_client.post(undo_url(resolution.pk))
    assert response.status_code == 403
    assert ConflictResolution.objects.filter(pk=resolution.pk).exists()
    assert chunk_of(resolution.conflict).content == INCOMING


def test_undo_answers_only_post(reviewer_client, worker):
    resolution = decided(worker, "keep_existing")
    assert reviewer_client.get(undo_url(resolution.pk)).status_code == 405
    assert reviewer_client.post(undo_url(999_999)).status_code == 404


def test_undo_is_csrf_protected(reviewer, worker):
    resolution = decided(worker, "accept_incoming")
    client = Client(enforce_csrf_checks=True)
    client.force_login(reviewer)
    assert client.post(undo_url(resolution.pk)).status_code == 403
    assert ConflictResolution.objects.filter(pk=resolution.pk).exists()

    page = client.get(LOG).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = client.post(undo_url(resolution.pk), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert not ConflictResolution.objects.filter(pk=resolution.pk).exists()
    # htmx sends the token in a header (templates/base.html: hx-headers)
    second = decided(worker, "accept_incoming")
    response = client.post(undo_url(second.pk), HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200


# --- the log --------------------------------------------------------------------------


def test_it_explains_what_appears_when_there_is_nothing_yet(reader_client):
    page = reader_client.get(LOG).content.decode()
    assert "No decisions yet" in page and 'href="/review/"' in page


def test_it_lists_every_decision_newest_first_with_before_and_after(
    reviewer_client, reviewer, worker
):
    first = decided(worker, "accept_incoming", user=reviewer, note="new figure from finance")
    second = decided(worker, "keep_existing", user=reviewer, title="Q4 planning")
    _, key = token_issue(worker=worker, name="planner-bot")
    from memoryhub.models import ApiToken

    third_conflict = make_conflict(worker, title="Hiring")
    conflict_resolve(
        conflict=third_conflict, decision="dismiss", token=ApiToken.objects.get(name="planner-bot")
    )
    page = reviewer_client.get(LOG).content.decode()
    order = [int(i) for i in re.findall(r'data-decision-id="(\d+)"', page)]
    third = ConflictResolution.objects.get(conflict=third_conflict)
    assert order == [third.pk, second.pk, first.pk]
    assert f'href="/review/{first.conflict_id}/"' in page
    assert "decided by <strong>rita</strong>" in page
    assert "planner-bot (API token)" in page
    assert "new figure from finance" in page
    assert "owner-agent" in page and "Accept incoming" in page and "Keep existing" in page
    # before / after side by side, the changed words marked
    assert "<del>$50,000</del>" in page and "<ins>$65,000</ins>" in page
    assert "chunk #" in page and "incoming section, not applied" in page
    assert page.count("Undo</button>") == 3


def test_filters_narrow_the_log_and_htmx_gets_only_the_list(
    reviewer_client, reviewer, worker, other_worker
):
    mine = decided(worker, "accept_incoming", user=reviewer)
    theirs = decided(other_worker, "dismiss")
    old = decided(worker, "keep_existing")
    ConflictResolution.objects.filter(pk=old.pk).update(
        resolved_at=timezone.now() - dt.timedelta(days=40)
    )

    def ids(**params):
        page = reviewer_client.get(LOG, params).content.decode()
        return {int(i) for i in re.findall(r'data-decision-id="(\d+)"', page)}

    assert ids() == {mine.pk, theirs.pk, old.pk}
    assert ids(worker=other_worker.pk) == {theirs.pk}
    assert ids(decision="accept_incoming") == {mine.pk}
    assert ids(who=f"u:{reviewer.pk}") == {mine.pk}
    week_ago = (timezone.localdate() - dt.timedelta(days=7)).isoformat()
    assert ids(date_from=week_ago) == {mine.pk, theirs.pk}
    assert ids(date_to=week_ago) == {old.pk}
    assert ids(state="undone") == set()
    assert ids(date_from="not a date") == {mine.pk, theirs.pk, old.pk}  # bad value dropped

    full = reviewer_client.get(LOG, {"decision": "dismiss"})
    assert full.content.decode().lstrip().startswith("<!doctype html>")
    partial = reviewer_client.get(LOG, {"decision": "dismiss"}, HTTP_HX_REQUEST="true")
    body = partial.content.decode()
    assert body.lstrip().startswith('<section id="decision-log"') and "<html" not in body
    assert f'data-decision-id="{theirs.pk}"' in body and "1 decision matches" in body
    assert "HX-Request" in partial["Vary"]
    # a boosted navigation is a full page
    boosted = reviewer_client.get(LOG, HTTP_HX_REQUEST="true", HTTP_HX_BOOSTED="true")
    assert boosted.content.decode().lstrip().startswith("<!doctype html>")

    empty = reviewer_client.get(LOG, {"decision": "merge_edited"}).content.decode()
    assert "No decision matches these filters" in empty


def test_it_pages(reviewer_client, worker, monkeypatch):
    monkeypatch.setattr("review.views.decisions.PAGE_SIZE", 2)
    made = [decided(worker, "keep_existing", title=f"Task {n}").pk for n in range(5)]
    first = reviewer_client.get(LOG).content.decode()
    assert "page 1 of 3" in first and 'rel="next"' in first
    third = reviewer_client.get(LOG, {"page": 3, "decision": "keep_existing"}).content.decode()
    assert [int(i) for i in re.findall(r'data-decision-id="(\d+)"', third)] == [made[0]]
    previous = re.search(r'<a href="(\?[^"]*)"[^>]*rel="prev"', third).group(1)
    assert set(previous[1:].split("&amp;")) == {"page=2", "decision=keep_existing"}


# --- undo -----------------------------------------------------------------------------


def test_undoing_accept_incoming_restores_the_chunk_and_reopens_the_conflict(
    reviewer_client, reviewer, worker
):
    resolution = decided(worker, "accept_incoming", user=reviewer, note="finance said so")
    conflict = resolution.conflict
    assert chunk_of(conflict).content == INCOMING

    response = reviewer_client.post(undo_url(resolution.pk), {"next": "/review/decisions/?x=1"})
    assert response.status_code == 302 and response["Location"] == "/review/decisions/?x=1"
    conflict.refresh_from_db()
    assert conflict.status == "pending" and conflict.resolved_at is None
    assert not hasattr(conflict, "resolution")
    assert chunk_of(conflict).content == EXISTING
    undone = UndoneResolution.objects.get(resolution_id=resolution.pk)
    assert (undone.decision, undone.undone_by, undone.note) == (
        "accept_incoming",
        reviewer,
        "finance said so",
    )
    assert undone.resolved_by == reviewer and undone.after["content"] == INCOMING

    page = reviewer_client.get(LOG).content.decode()
    assert "Undone by rita" in page and 'data-state="undone"' in page
    assert "back in the review queue" in page  # the message after the redirect


def test_a_reopened_conflict_can_be_decided_again_and_the_log_keeps_both(
    reviewer_client, reviewer, worker
):
    resolution = decided(worker, "accept_incoming", user=reviewer)
    conflict = conflict_undo(resolution=resolution, user=reviewer)
    conflict_resolve(conflict=conflict, decision="keep_existing", user=reviewer)
    page = reviewer_client.get(LOG).content.decode()
    assert page.count('data-state="undone"') == 1 and page.count('data-state="in_force"') == 1
    assert chunk_of(conflict).content == EXISTING


def test_undoing_a_separate_memory_deletes_it(reviewer_client, worker):
    resolution = decided(worker, "separate_memory")
    created = resolution.after["shortterm_memory_id"]
    assert reviewer_client.post(undo_url(resolution.pk)).status_code == 302
    assert not ShorttermMemory.objects.filter(pk=created).exists()
    assert MergeConflict.objects.get(pk=resolution.conflict_id).status == "pending"


@pytest.mark.parametrize("decision", ["keep_existing", "dismiss", "merge_edited"])
def test_other_decisions_are_undone_too(reviewer_client, worker, decision):
    resolution = decided(worker, decision)
    assert reviewer_client.post(undo_url(resolution.pk)).status_code == 302
    conflict = MergeConflict.objects.get(pk=resolution.conflict_id)
    assert conflict.status == "pending" and chunk_of(conflict).content == EXISTING


def test_htmx_undo_swaps_the_entry(reviewer_client, worker):
    resolution = decided(worker, "accept_incoming")
    response = reviewer_client.post(undo_url(resolution.pk), HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith(
        f'<article class="card dl-entry dl-undone" id="decision-{resolution.pk}"'
    )
    assert "is pending again" in body and f'href="/review/{resolution.conflict_id}/"' in body


def test_undo_is_refused_once_the_chunk_changed(reviewer_client, worker):
    resolution = decided(worker, "accept_incoming")
    chunk = chunk_of(resolution.conflict)
    later = "The Q3 budget for the marketing team is $70,000."
    shortterm_chunks_update(
        memory=chunk.memory, updates=[{"chunk_id": chunk.pk, "new_content": later}]
    )

    page = reviewer_client.get(LOG).content.decode()
    assert "Can't undo: the chunk changed after this decision" in page
    response = reviewer_client.post(undo_url(resolution.pk), HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "the chunk changed after this decision" in response.content.decode()
    response = reviewer_client.post(undo_url(resolution.pk), follow=True)
    assert "the chunk changed after this decision" in response.content.decode()
    assert ConflictResolution.objects.filter(pk=resolution.pk).exists()
    assert MergeConflict.objects.get(pk=resolution.conflict_id).status == "resolved"
    assert chunk_of(resolution.conflict).content == later
    assert not UndoneResolution.objects.exists()


def test_undo_is_refused_once_the_chunk_is_gone(worker, reviewer):
    resolution = decided(worker, "merge_edited")
    chunk_of(resolution.conflict).delete()
    with pytest.raises(ConflictError, match="the chunk was deleted after this decision"):
        conflict_undo(resolution=resolution, user=reviewer)
    assert ConflictResolution.objects.filter(pk=resolution.pk).exists()


def test_undo_is_refused_once_the_separate_memory_changed(worker, reviewer):
    resolution = decided(worker, "separate_memory")
    memory = ShorttermMemory.objects.get(pk=resolution.after["shortterm_memory_id"])
    shortterm_chunks_add(memory=memory, chunks=[{"content": "Finance confirmed it on Monday."}])
    with pytest.raises(ConflictError, match="changed after it") as refused:
        conflict_undo(resolution=resolution, user=reviewer)
    assert refused.value.status_code == 409
    assert ShorttermMemory.objects.filter(pk=memory.pk).exists()
    assert MergeConflict.objects.get(pk=resolution.conflict_id).status == "resolved"


def test_undo_is_refused_while_a_later_conflict_is_about_what_it_wrote(worker, reviewer):
    resolution = decided(worker, "accept_incoming")
    chunk = chunk_of(resolution.conflict)
    later = conflict_create(
        worker=worker,
        active_memory=None,
        section_id="notes",
        section_name="Notes",
        section_content="The Q3 budget for the marketing team is $80,000.",
        conflicting_chunks=[{"chunk_id": chunk.pk, "content": INCOMING, "similarity": 0.9}],
        reasons=[{"code": "number_changed"}],
    )
    with pytest.raises(ConflictError, match=f"conflict #{later.pk}, filed after this decision"):
        conflict_undo(resolution=resolution, user=reviewer)
    assert chunk.content == chunk_of(resolution.conflict).content == INCOMING


def test_undoing_twice_is_refused(reviewer_client, reviewer, worker):
    resolution = decided(worker, "accept_incoming")
    conflict_undo(resolution=resolution, user=reviewer)
    with pytest.raises(ConflictError, match="already undone by rita") as twice:
        conflict_undo(resolution=resolution, user=reviewer)
    assert twice.value.code == "already_undone"
    response = reviewer_client.post(undo_url(resolution.pk), HTTP_HX_REQUEST="true")
    assert response.status_code == 409 and "already undone" in response.content.decode()
    assert UndoneResolution.objects.count() == 1
    assert chunk_of(resolution.conflict).content == EXISTING


def test_a_failure_midway_undoes_nothing(worker, reviewer, monkeypatch):
    resolution = decided(worker, "accept_incoming")

    def explode(*args, **kwargs):
        raise RuntimeError("crash after the chunk was restored")

    monkeypatch.setattr(UndoneResolution.objects, "create", explode)
    with pytest.raises(RuntimeError):
        conflict_undo(resolution=resolution, user=reviewer)
    assert chunk_of(resolution.conflict).content == INCOMING
    assert MergeConflict.objects.get(pk=resolution.conflict_id).status == "resolved"
    assert ConflictResolution.objects.filter(pk=resolution.pk).exists()


# --- untrusted content ----------------------------------------------------------------


def test_payloads_in_memory_content_render_inert(reviewer_client, reviewer):
    worker = WorkerFactory(name=f"evil{XSS}")
    for decision in ("accept_incoming", "keep_existing"):
        decided(
            worker,
            decision,
            user=reviewer,
            note=f"note {XSS}",
            existing=f"Budget is $1. {XSS}",
            incoming=f"Budget is $2. {XSS} **bold**",
            codes=["number_changed", f"odd{XSS}"],
            title=f"Task {XSS}",
        )
    pages = [
        reviewer_client.get(LOG).content.decode(),
        reviewer_client.get(LOG, HTTP_HX_REQUEST="true").content.decode(),
        reviewer_client.get(DETECTOR).content.decode(),
    ]
    resolution = ConflictResolution.objects.first()
    pages.append(
        reviewer_client.post(undo_url(resolution.pk), HTTP_HX_REQUEST="true").content.decode()
    )
    for page in pages:
        assert "<script>alert" not in page and "<img src=x" not in page
        assert "onerror=alert(1)>" not in page.replace("&lt;img src=x onerror=alert(1)&gt;", "")
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in pages[0]
    assert "&lt;script&gt;" in pages[2]  # the odd reason code, escaped


# --- the detector's precision ---------------------------------------------------------


@pytest.fixture
def judged(worker, other_worker, reviewer):
    """A hand-made set: number_changed on 5 decided conflicts (4 real: accepted, kept,
    merged, accepted; 1 dismissed), date_changed on 3 (1 real, 1 separate memory,
    1 dismissed), negation_flip only pending, one undone decision that must not count."""
    decided(worker, "accept_incoming", codes=["number_changed"])
    decided(worker, "keep_existing", codes=["number_changed", "date_changed"])
    decided(worker, "merge_edited", codes=["number_changed"])
    decided(other_worker, "accept_incoming", codes=["number_changed", "number_changed"])
    decided(worker, "dismiss", codes=["number_changed"])
    decided(worker, "separate_memory", codes=["date_changed"])
    decided(other_worker, "dismiss", codes=["date_changed"])
    make_conflict(worker, codes=["negation_flip"])
    undone = decided(worker, "accept_incoming", codes=["value_replaced"])
    conflict_undo(resolution=undone, user=reviewer)


def test_precision_per_reason_on_a_hand_made_set(judged, worker):
    figures = detector_precision()
    rows = {row.code: row for row in figures["reasons"]}
    number, date = rows["number_changed"], rows["date_changed"]
    assert (number.decisions, number.real, number.agree, number.new) == (5, 4, 1, 0)
    assert number.precision == pytest.approx(0.8)
    assert (date.decisions, date.real, date.new, date.agree) == (3, 1, 1, 1)
    assert rows["negation_flip"].decisions == 0 and rows["negation_flip"].pending == 1
    assert rows["value_replaced"].decisions == 0 and rows["value_replaced"].pending == 1
    assert [row.code for row in figures["reasons"]][:2] == ["number_changed", "date_changed"]
    assert (figures["overall"].decisions, figures["overall"].real) == (7, 4)
    assert number.bar == 100 and date.bar == pytest.approx(60)

    mine = {row.code: row for row in detector_precision(worker=worker)["reasons"]}
    assert (mine["number_changed"].decisions, mine["number_changed"].real) == (4, 3)


def test_the_precision_page_shows_a_bar_per_reason(judged, reader_client, worker):
    page = reader_client.get(DETECTOR).content.decode()
    assert "flagged as number change: 5 decisions, 4 real conflicts" in page
    assert "flagged as date change: 3 decisions, 1 real conflict<" in page
    assert re.search(r'data-reason="number_changed">.*?data-col="precision">80%', page, re.S)
    assert 'class="dl-bar" style="width: 100.0%"' in page
    assert "<strong>7</strong> decided conflicts" in page

    partial = reader_client.get(DETECTOR, {"worker": worker.pk}, HTTP_HX_REQUEST="true")
    body = partial.content.decode()
    assert body.lstrip().startswith('<section id="detector"') and "<html" not in body
    assert "flagged as number change: 4 decisions, 3 real conflicts" in body


def test_the_precision_page_explains_itself_when_nothing_was_decided(reader_client, worker):
    make_conflict(worker)
    page = reader_client.get(DETECTOR).content.decode()
    assert "No decided conflicts yet" in page and "1 reason waits in pending conflicts" in page


def test_the_admin_shows_a_conflicts_decision_and_its_undone_ones(client, worker):
    from tests.factories import StaffFactory

    resolution = decided(worker, "keep_existing")
    conflict_id = resolution.conflict_id
    client.force_login(StaffFactory(username="boss"))
    page = client.get(f"/admin/review/mergeconflict/{conflict_id}/change/")
    assert page.status_code == 200 and "Keep existing" in page.content.decode()
