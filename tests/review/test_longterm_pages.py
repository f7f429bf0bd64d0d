"""The tier browser's longterm pages through Django's test client: the Longterm tab and its
"as of" picker, a source's history page (timeline, versions, word diff), a shortterm
memory's promotion score and the "Promote now" button. Data comes from the real services
(memories, usage signals, promotion checks at explicit times) on the real database."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from consolidation.models import PromotionState
from consolidation.services.shortterm_to_longterm import promotion_check
from tests.factories import UserFactory, make_conflict
from tiers.models import LongtermChunk
from tiers.services.shortterm import shortterm_chunks_update, shortterm_memory_create
from tiers.services.usage import usage_record

pytestmark = pytest.mark.django_db

OLD = "The billing service runs on PostgreSQL 14 in eu-west-1."
NEW = "The billing service runs on PostgreSQL 16 in eu-central-1."
KEPT = "Dana Park owns the billing service."
XSS = "<script>alert(1)</script>"


@pytest.fixture
def staff(client, staff_user):
    client.force_login(staff_user)
    return client


def _promoted_twice(worker, *, title="Billing service", first, second):
    """A memory promoted at ``first``, its first chunk changed, promoted again at
    ``second``: two versions of chunk 0, one of chunk 1."""
    memory = shortterm_memory_create(
        worker=worker, title=title, chunks=[{"content": OLD}, {"content": f"{KEPT} {XSS}"}]
    )
    usage_record(worker=worker, memory_id=memory.pk, kind="mark_important", at=first)
    assert promotion_check(memory=memory, now=first).promoted
    chunk = memory.chunks.get(chunk_order=0)
    shortterm_chunks_update(memory=memory, updates=[{"chunk_id": chunk.pk, "new_content": NEW}])
    assert promotion_check(memory=memory, now=second).versions_created
    return memory


@pytest.fixture
def data(worker, other_worker):
    now = timezone.now()
    first, second = now - timedelta(days=2), now - timedelta(days=1)
    memory = _promoted_twice(worker, first=first, second=second)
    unscored = shortterm_memory_create(worker=worker, title="Fresh note", content="Just stored.")
    other = _promoted_twice(other_worker, title="OTHER-AGENT-SOURCE", first=first, second=second)
    return {
        "memory": memory,
        "unscored": unscored,
        "other": other,
        "first": first,
        "second": second,
    }


def _tab(worker, **query) -> str:
    url = reverse("review:browser-worker", args=[worker.pk])
    return url + "?" + "&".join(["tab=longterm", *(f"{k}={v}" for k, v in query.items())])


def _history(worker, source_id) -> str:
    return reverse(
        "review:browser-longterm-history", args=[getattr(worker, "pk", worker), source_id]
    )


def _chunks(worker, memory_id) -> str:
    return reverse("review:browser-chunks", args=[worker.pk, memory_id])


def _local(moment) -> str:
    """What a ``datetime-local`` input sends."""
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


def _html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def _urls(worker, data) -> list[str]:
    between = _local(data["first"] + timedelta(hours=12))
    return [
        _tab(worker),
        _tab(worker, as_of=between),
        _history(worker, data["memory"].pk),
        _chunks(worker, data["memory"].pk),
        _chunks(worker, data["unscored"].pk),
    ]


# Access --------------------------------------------------------------------------------


def test_it_sends_anonymous_people_to_the_login_page(client, worker, data):
    for url in _urls(worker, data):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    promote = reverse("review:browser-promote", args=[worker.pk, data["unscored"].pk])
    assert client.post(promote)["Location"].startswith(reverse("login"))
    assert not PromotionState.objects.filter(memory=data["unscored"]).exists()


def test_it_refuses_logged_in_people_who_are_not_staff(client, worker, data):
    client.force_login(UserFactory())
    for url in _urls(worker, data):
        assert client.get(url).status_code == 403, url
        assert client.get(url, HTTP_HX_REQUEST="true").status_code == 403, url
    promote = reverse("review:browser-promote", args=[worker.pk, data["unscored"].pk])
    assert client.post(promote).status_code == 403
    assert not PromotionState.objects.filter(memory=data["unscored"]).exists()


def test_staff_open_every_page_and_fragment(staff, worker, data):
    for url in _urls(worker, data):
        assert "<html" in _html(staff.get(url)), url
        fragment = _html(staff.get(url, HTTP_HX_REQUEST="true"))
        if "/history" not in url:  # the history page has no fragment
            assert "<html" not in fragment, url


# The Longterm tab ----------------------------------------------------------------------


def test_the_tab_lists_the_current_versions_with_their_counts(staff, worker, data):
    html = _html(staff.get(_tab(worker)))
    assert 'data-tab="longterm"' in html
    assert NEW in html and OLD not in html and KEPT in html
    assert re.search(r'data-count="longterm-current">2<', html)
    assert re.search(r'data-count="longterm-versions">3<', html)
    assert re.search(r'id="tab-longterm".*?bt-tab-count">2<', html, re.S)
    assert html.count('class="card lt-chunk"') == 2  # neither has ended
    assert _history(worker, data["memory"].pk) in html
    for fact in ("confidence", "importance", "type", "start"):
        assert f'data-fact="{fact}"' in html
    assert "OTHER-AGENT-SOURCE" not in html
    assert "Longterm: planned" not in html
    workers = _html(staff.get(reverse("review:browser")))
    row = re.search(rf'<tr data-worker="{worker.name}">(.*?)</tr>', workers, re.S).group(1)
    assert re.search(r'data-col="longterm"><a [^>]*>2</a>', row)


def test_as_of_a_moment_between_the_promotions_shows_the_older_version(staff, worker, data):
    between = _local(data["first"] + timedelta(hours=12))
    html = _html(staff.get(_tab(worker, as_of=between)))
    assert OLD in html and NEW not in html and KEPT in html
    assert 'data-showing="as-of"' in html and f'value="{between}"' in html
    # htmx gets the tabs fragment, in the same state
    fragment = _html(staff.get(_tab(worker, as_of=between), HTTP_HX_REQUEST="true"))
    assert "<html" not in fragment and OLD in fragment and NEW not in fragment
    # a date alone is its start; before the first promotion nothing was valid
    before = timezone.localtime(data["first"] - timedelta(days=1)).date().isoformat()
    assert "Nothing was valid then" in _html(staff.get(_tab(worker, as_of=before)))
    # now: the current versions again
    html = _html(staff.get(_tab(worker, as_of=_local(timezone.now() + timedelta(minutes=1)))))
    assert NEW in html and OLD not in html


@pytest.mark.parametrize("bad", ["yesterday", "2026-13-45T99:99", "2026-02-30"])
def test_a_bad_date_is_a_form_error_not_a_500(staff, worker, data, bad):
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        html = _html(staff.get(_tab(worker, as_of=bad), **headers))
        assert 'role="alert"' in html and "Enter a date and time" in html
        assert 'aria-invalid="true"' in html
        assert NEW in html  # the current versions, with the error above them


def test_hostile_longterm_content_is_escaped(staff, worker, data):
    for url in (_tab(worker), _history(worker, data["memory"].pk)):
        html = _html(staff.get(url))
        assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


# The history page ----------------------------------------------------------------------


def test_the_history_shows_every_version_a_timeline_and_the_diff(staff, worker, data):
    html = _html(staff.get(_history(worker, data["memory"].pk)))
    versions = LongtermChunk.objects.filter(shortterm_memory_id=data["memory"].pk)
    assert versions.count() == 3
    for version in versions:
        assert f'<tr data-version="{version.pk}"' in html
        assert '<g class="lt-version' in html and f'data-version="{version.pk}"' in html
    svg = re.search(r'<svg class="lt-timeline".*?</svg>', html, re.S).group(0)
    assert svg.count('<rect class="lt-bar"') == 3  # a bar per version
    assert svg.count('data-current="true"') == 2  # chunk 0's second version, chunk 1's first
    assert svg.count('class="lt-lane"') == 2  # a lane per chunk
    assert OLD in html and NEW in html
    # the word diff of chunk 0: versions 1 → 2
    change = re.search(r'<article class="lt-change".*?</article>', html, re.S).group(0)
    assert "v1 → v2" in change
    assert re.search(r'class="d-del(-num)?">14<', change)
    assert re.search(r'class="d-ins(-num)?">16<', change)
    assert re.search(r'class="d-del">eu-west-1<|class="d-del(-num)?">[^<]*west', change)
    assert 'data-count="changes">1<' in html


def test_the_history_of_another_workers_or_an_unknown_source_is_404(staff, worker, data):
    assert staff.get(_history(worker, data["other"].pk)).status_code == 404
    assert staff.get(_history(worker, data["unscored"].pk)).status_code == 404  # never promoted
    assert staff.get(_history(worker, 10**9)).status_code == 404
    assert staff.get(_history(10**9, data["memory"].pk)).status_code == 404


def test_the_history_outlives_its_source(staff, worker, data):
    from tiers.services.shortterm import shortterm_memory_delete

    shortterm_memory_delete(memory=data["memory"])
    html = _html(staff.get(_history(worker, data["memory"].pk)))
    assert "removed from the shortterm tier" in html and NEW in html


# The promotion score -------------------------------------------------------------------


def test_the_score_breakdown_shows_four_components_and_the_decider(staff, worker, data):
    html = _html(staff.get(_chunks(worker, data["memory"].pk), HTTP_HX_REQUEST="true"))
    chart = re.search(r'<svg class="lt-score-chart".*?</svg>', html, re.S).group(0)
    for key in ("access_pattern", "content_stability", "user_engagement", "semantic_importance"):
        assert f'data-component="{key}"' in chart, key
    assert 'data-component="composite"' in chart
    assert 'class="lt-threshold"' in chart and "threshold 7.0" in chart
    assert 'data-decided-by="trigger_important"' in html
    assert "Trigger: marked important" in html
    state = PromotionState.objects.get(memory=data["memory"])
    assert state.reason and state.reason in html
    spark = re.search(r'<svg class="lt-spark".*?</svg>', html, re.S).group(0)
    assert "<polyline" in spark and 'class="lt-spark-threshold"' in spark
    assert len(re.search(r'points="([^"]*)"', spark).group(1).split()) == 2  # two checks
    assert spark.count("is-promoted") == 2
    assert _history(worker, data["memory"].pk) in html
    # the whole page too (the Shortterm tab with the memory open)
    assert 'data-component="semantic_importance"' in _html(
        staff.get(_chunks(worker, data["memory"].pk))
    )


def test_a_memory_never_scored_says_so(staff, worker, data):
    html = _html(staff.get(_chunks(worker, data["unscored"].pk), HTTP_HX_REQUEST="true"))
    assert "Not scored yet" in html and "lt-score-chart" not in html


def test_a_fallback_decision_shows_the_components_error(staff, worker, data):
    # What promotion_check records when a component raises (consolidation.scoring.decide):
    # the fallback rule decided and the failure is kept.
    PromotionState.objects.filter(memory=data["memory"]).update(
        decided_by="fallback", reason="fallback rule: access 0 < 7", error="semantic: boom"
    )
    html = _html(staff.get(_chunks(worker, data["memory"].pk), HTTP_HX_REQUEST="true"))
    assert 'data-decided-by="fallback"' in html and "Fallback rule" in html
    assert "the fallback rule decided: semantic: boom" in html


def test_promote_now_promotes_and_answers_the_fragment(staff, worker, data):
    url = reverse("review:browser-promote", args=[worker.pk, data["unscored"].pk])
    assert staff.get(url).status_code == 405
    html = _html(staff.post(url, HTTP_HX_REQUEST="true"))
    assert "<html" not in html and 'data-promote-result="ok"' in html
    assert "Promoted: 1 new longterm version." in html
    assert 'data-decided-by="manual"' in html
    assert LongtermChunk.objects.filter(shortterm_memory_id=data["unscored"].pk).count() == 1
    # without htmx: back to the memory, with a message
    response = staff.post(url)
    assert response.status_code == 302 and response["Location"] == _chunks(
        worker, data["unscored"].pk
    )
    html = _html(staff.get(response["Location"]))
    assert "Promoted before with the same content" in html


def test_promote_now_is_refused_while_a_conflict_awaits(staff, worker):
    conflict = make_conflict(worker)
    memory_id = conflict.conflicting_chunks[0]["memory_id"]
    url = reverse("review:browser-promote", args=[worker.pk, memory_id])
    html = _html(staff.post(url, HTTP_HX_REQUEST="true"))
    assert 'data-promote-result="refused"' in html and "awaits a reviewer" in html
    assert not LongtermChunk.objects.exists()


def test_promote_now_for_another_workers_memory_is_404(staff, worker, data):
    url = reverse("review:browser-promote", args=[worker.pk, data["other"].pk])
    assert staff.post(url, HTTP_HX_REQUEST="true").status_code == 404


def test_csrf_is_required_to_promote(client, staff_user, worker, data):
    from django.test import Client

    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(staff_user)
    url = reverse("review:browser-promote", args=[worker.pk, data["unscored"].pk])
    assert csrf_client.post(url).status_code == 403
    assert not PromotionState.objects.filter(memory=data["unscored"]).exists()


def test_the_pages_of_an_as_of_list_keep_the_date(staff, worker):
    at = timezone.now() - timedelta(hours=2)
    memory = shortterm_memory_create(
        worker=worker,
        title="Many facts",
        chunks=[{"content": f"Fact number {n} about the ledger."} for n in range(25)],
    )
    usage_record(worker=worker, memory_id=memory.pk, kind="mark_important", at=at)
    promotion_check(memory=memory, now=at)
    as_of = _local(at + timedelta(hours=1))
    html = _html(staff.get(_tab(worker, as_of=as_of)))
    assert html.count('class="card lt-chunk"') == 20 and "Page 1 of 2" in html
    assert f"as_of={as_of.replace(':', '%3A')}&amp;page=2" in html
    html = _html(staff.get(_tab(worker, as_of=as_of, page=2)))
    assert html.count('class="card lt-chunk"') == 5 and 'data-showing="as-of"' in html
