"""The review queue and a conflict's page, through Django's test client (the browser test
is tests/review/test_queue_browser.py)."""

import pytest
from django.test import Client

from review.models import MergeConflict
from review.selectors.queue import emphasised
from review.services.conflicts import conflict_resolve
from tests import factories
from tiers.models import ShorttermChunk

pytestmark = pytest.mark.django_db

EXISTING = "The Q3 budget for the marketing team is $50,000. Alice Chen approves it."
INCOMING = "The Q3 budget for the marketing team is $65,000. Alice Chen approves it."
XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'


OWNER_CHANGED = {
    "new": [],
    "conflicts": [
        {
            "incoming": {"from": "Q3 budget", "type": "OWNED_BY", "to": "Bob"},
            "existing": {"from": "q3 budget", "type": "OWNED_BY", "to": "alice chen"},
            "reason": "functional_relationship_changed",
        }
    ],
}


def make_conflict(
    worker,
    *,
    existing=EXISTING,
    incoming=INCOMING,
    title="Q3 planning",
    code="number_changed",
    detail="$50,000 → $65,000",
):
    """A conflict whose reason quotes the spans it compared and whose graphs disagree."""
    return factories.make_conflict(
        worker,
        existing=existing,
        incoming=incoming,
        title=title,
        reasons=[{"code": code, "detail": detail, "incoming": [40, 47], "existing": [40, 47]}],
        entity_differences={"new": [], "conflicts": []},
        relationship_differences=OWNER_CHANGED,
    )


def test_every_queue_page_needs_a_login(client, worker):
    conflict = make_conflict(worker)
    for url in ("/review/", f"/review/{conflict.pk}/", "/review/badge"):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert client.post(f"/review/{conflict.pk}/resolve", {"decision": "dismiss"}).status_code == 302
    assert MergeConflict.objects.get(pk=conflict.pk).status == "pending"


def test_the_empty_queue_says_what_will_appear_and_why(reader_client):
    page = reader_client.get("/review/").content.decode()
    assert "No conflict waits for review" in page and "contradicts its stored memory" in page


def test_the_queue_lists_pending_conflicts_newest_first_with_counts(
    reader_client, worker, other_worker
):
    older = make_conflict(worker)
    newer = make_conflict(other_worker, title="Hiring plan")
    done = make_conflict(worker, title="Done one")
    conflict_resolve(conflict=done, decision="keep_existing")
    page = reader_client.get("/review/").content.decode()
    assert page.index(f'data-conflict="{newer.pk}"') < page.index(f'data-conflict="{older.pk}"')
    assert f'data-conflict="{done.pk}"' not in page
    assert 'data-status="pending">pending <span class="badge">2</span>' in page
    assert 'data-status="resolved">resolved <span class="badge">1</span>' in page
    assert "number change" in page  # the reason in words
    resolved = reader_client.get("/review/", {"status": "resolved"}).content.decode()
    assert f'data-conflict="{done.pk}"' in resolved and "Keep existing" in resolved


def test_filters_and_text_search_narrow_the_queue_and_htmx_gets_only_the_list(
    reader_client, worker, other_worker
):
    budget = make_conflict(worker)
    negation = make_conflict(
        other_worker,
        existing="We use Redis for sessions.",
        incoming="We no longer use Redis for sessions.",
        code="negation_flip",
        detail="negation added: “no longer”",
    )

    def listed(**params):
        page = reader_client.get("/review/", params).content.decode()
        return {c.pk for c in (budget, negation) if f'data-conflict="{c.pk}"' in page}

    assert listed() == {budget.pk, negation.pk}
    assert listed(worker=other_worker.pk) == {negation.pk}
    assert listed(reason="negation_flip") == {negation.pk}
    assert listed(q="redis") == {negation.pk}
    assert listed(q="marketing") == {budget.pk}
    assert listed(age="1d") == set()  # both were found just now
    assert listed(worker="not-a-number") == {budget.pk, negation.pk}  # a bad value is dropped
    partial = reader_client.get("/review/", {"reason": "negation_flip"}, HTTP_HX_REQUEST="true")
    html = partial.content.decode()
    assert "<html" not in html and f'data-conflict="{negation.pk}"' in html
    assert (
        "Nothing matches these filters"
        in reader_client.get("/review/", {"q": "zzz"}).content.decode()
    )


def test_the_queue_pages(reader_client, worker, monkeypatch):
    from review.views import queue

    monkeypatch.setattr(queue, "PAGE_SIZE", 2)
    conflicts = [make_conflict(worker, title=f"Plan {n}") for n in range(3)]
    first = reader_client.get("/review/").content.decode()
    second = reader_client.get("/review/", {"page": 2}).content.decode()
    assert "page 1 of 2" in first and f'data-conflict="{conflicts[0].pk}"' not in first
    assert f'data-conflict="{conflicts[0].pk}"' in second


def test_the_badge_counts_pending_conflicts_and_polls(reader_client, worker):
    make_conflict(worker)
    html = reader_client.get("/review/badge", HTTP_HX_REQUEST="true").content.decode()
    assert ">1</span>" in html and 'hx-trigger="every 30s"' in html
    page = reader_client.get("/").content.decode()
    assert 'id="pending-badge"' in page and 'hx-get="/review/badge"' in page


def test_the_conflict_page_shows_both_texts_the_diff_the_reasons_and_the_graph(
    reviewer_client, worker
):
    conflict = make_conflict(worker)
    page = reviewer_client.get(f"/review/{conflict.pk}/").content.decode()
    assert '<span class="d-del-num">$50,000</span>' in page  # a changed number, stressed
    assert '<span class="d-ins-num">$65,000</span>' in page
    assert (
        "A number differs between two statements that otherwise match: $50,000 → $65,000." in page
    )
    assert "rq-by-rule" in page and "cosine similarity" in page and "0.93" in page
    assert "Graph differences" in page and "alice chen" in page
    assert 'name="edited_text"' in page and "$65,000" in page  # the proposed merge, editable
    assert "csrfmiddlewaretoken" in page and 'data-key="a"' in page
    partial = reviewer_client.get(
        f"/review/{conflict.pk}/", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "<html" not in partial and "rq-panel" in partial
    assert reviewer_client.get("/review/999999/").status_code == 404


def test_a_reader_without_the_permission_sees_the_conflict_read_only(reader_client, worker):
    conflict = make_conflict(worker)
    page = reader_client.get(f"/review/{conflict.pk}/").content.decode()
    assert 'id="rq-read-only"' in page and 'data-key="a"' not in page
    response = reader_client.post(f"/review/{conflict.pk}/resolve", {"decision": "accept_incoming"})
    assert response.status_code == 403
    assert MergeConflict.objects.get(pk=conflict.pk).status == "pending"


def test_accepting_loads_the_next_pending_conflict_without_a_page_reload(reviewer_client, worker):
    older = make_conflict(worker, title="First")
    newer = make_conflict(worker, title="Second")
    response = reviewer_client.post(
        f"/review/{newer.pk}/resolve",
        {"decision": "accept_incoming", "note": "finance confirmed"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert (
        f'data-conflict="{older.pk}"' in html and f"Conflict #{newer.pk}: accept incoming." in html
    )
    assert response["HX-Push-Url"] == f"/review/{older.pk}/"
    assert 'id="pending-badge"' in html and 'hx-swap-oob="true">1</span>' in html  # the header
    newer.refresh_from_db()
    assert newer.status == "resolved" and newer.resolution.note == "finance confirmed"
    assert newer.resolution.resolved_by.username == "rita"
    chunk = ShorttermChunk.objects.get(pk=newer.conflicting_chunks[0]["chunk_id"])
    assert chunk.content == INCOMING
    last = reviewer_client.post(
        f"/review/{older.pk}/resolve", {"decision": "dismiss"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "That was the last pending conflict" in last
    assert 'hx-swap-oob="true">0</span>' in last


def test_without_htmx_a_decision_redirects_to_the_next_conflict(reviewer_client, worker):
    older = make_conflict(worker, title="First")
    newer = make_conflict(worker, title="Second")
    response = reviewer_client.post(f"/review/{newer.pk}/resolve", {"decision": "keep_existing"})
    assert response.status_code == 302 and response["Location"] == f"/review/{older.pk}/"


def test_merge_uses_the_edited_text_and_an_empty_one_is_a_form_error(reviewer_client, worker):
    conflict = make_conflict(worker)
    url = f"/review/{conflict.pk}/resolve"
    error = reviewer_client.post(
        url, {"decision": "merge_edited", "edited_text": "  "}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "required for merge_edited" in error
    assert MergeConflict.objects.get(pk=conflict.pk).status == "pending"
    merged = (
        "The Q3 budget for the marketing team is $65,000 (raised in July). Alice Chen approves it."
    )
    reviewer_client.post(
        url, {"decision": "merge_edited", "edited_text": merged}, HTTP_HX_REQUEST="true"
    )
    chunk = ShorttermChunk.objects.get(pk=conflict.conflicting_chunks[0]["chunk_id"])
    assert chunk.content == merged


def test_the_merge_preview_diffs_the_edit_against_the_stored_chunk(reviewer_client, worker):
    conflict = make_conflict(worker)
    html = reviewer_client.post(
        f"/review/{conflict.pk}/preview",
        {"edited_text": "The Q3 budget for the marketing team is $70,000. Alice Chen approves it."},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert '<span class="d-del-num">$50,000</span>' in html
    assert '<span class="d-ins-num">$70,000</span>' in html


def test_a_second_reviewer_sees_who_resolved_it_and_nothing_is_applied_twice(
    reviewer_client, reviewer, worker
):
    conflict = make_conflict(worker)
    other = Client()
    other.force_login(factories.make_reviewer("sam"))
    page_for_other = other.get(f"/review/{conflict.pk}/")  # opened before the first decided
    assert page_for_other.status_code == 200
    reviewer_client.post(f"/review/{conflict.pk}/resolve", {"decision": "accept_incoming"})
    late = other.post(
        f"/review/{conflict.pk}/resolve", {"decision": "dismiss"}, HTTP_HX_REQUEST="true"
    )
    html = late.content.decode()
    assert "already resolved" in html and "Already resolved by <strong>rita</strong>" in html
    conflict.refresh_from_db()
    assert conflict.status == "resolved" and conflict.resolution.decision == "accept_incoming"


def test_the_keyboard_shortcuts_are_on_the_page(reviewer_client, worker):
    page = reviewer_client.get(f"/review/{make_conflict(worker).pk}/").content.decode()
    for key in ("a", "k", "s", "d"):
        assert f'data-key="{key}"' in page
    assert "review-keys.js" in page and "<kbd>n</kbd>/<kbd>p</kbd>" in page


def test_hostile_content_renders_inert_on_the_queue_pages(reviewer_client, worker):
    conflict = make_conflict(
        worker,
        existing=f"Budget is $50,000. {XSS}",
        incoming=f"Budget is $65,000. {XSS}",
        title=f"Plan {XSS}",
    )
    for url in ("/review/", f"/review/{conflict.pk}/", "/review/?q=script"):
        html = reviewer_client.get(url).content.decode()
        assert "<script>alert" not in html and "<img src=x" not in html, url
        assert "&lt;script&gt;" in html


def test_only_changed_numbers_and_dates_are_stressed_not_names_that_look_like_months():
    segments = [
        ("del", "Jane"),
        ("ins", "Carlos"),
        ("del", "March 3"),
        ("ins", "May"),
        ("del", "Decker"),
        ("ins", "v2.1"),
        ("same", "2026"),
    ]
    assert emphasised(segments) == [
        ("del", "Jane"),
        ("ins", "Carlos"),
        ("del-num", "March 3"),
        ("ins-num", "May"),
        ("del", "Decker"),
        ("ins-num", "v2.1"),
        ("same", "2026"),
    ]


def test_the_conflict_page_shows_the_claim_judges_evidence_and_score(reviewer_client, worker):
    existing = "Olamide flies to Accra on 3 August 2024."
    incoming = "Olamide's flight to Accra is on the 5th of August 2024."
    conflict = factories.make_conflict(
        worker,
        existing=existing,
        incoming=incoming,
        reasons=[
            {
                "code": "claim_value_changed",
                "detail": "date: 3 August 2024 → 5th of August 2024",
                "existing": [existing.index("3 August"), existing.index(".")],
                "incoming": [incoming.index("5th"), len(incoming) - 1],
            }
        ],
        figures={
            "judge": {
                "label": "conflict",
                "probabilities": {"merge": 0.08, "conflict": 0.9, "new": 0.02},
                "evidence": [],
            }
        },
    )
    page = reviewer_client.get(f"/review/{conflict.pk}/").content.decode()
    assert "value changed (claims)" in page and "rq-by-model" in page
    assert "3 August 2024 → 5th of August 2024" in page
    assert "claim judge" in page and "conflict 0.90 · merge 0.08 · new 0.02" in page
