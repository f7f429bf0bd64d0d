"""The staff's tier browser, through Django's test client (the browser test is separate):
access, htmx fragments against whole pages, isolation between workers, untrusted content,
search scores and bad input, each tab's content."""

import json
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from graph.models import Entity, Relationship
from graph.services.edit import memory_graph_update
from review.models import MergeConflict
from tests.factories import TASK_TEMPLATE, UserFactory, WorkerFactory
from tiers.models import ExtractionStatus, ShorttermMemory
from tiers.services.active import active_memory_create, active_memory_update_sections
from tiers.services.shortterm import shortterm_memory_create

pytestmark = pytest.mark.django_db

XSS = "<script>alert(1)</script> and <img src=x onerror=alert(1)>"
GRAPH_TEXT = (
    "Alice Chen owns the auth gateway. The auth gateway uses JWT tokens. "
    "Alice Chen works at Acme Corp. Bob Stone works at Acme Corp."
)


@pytest.fixture
def staff(client, staff_user):
    client.force_login(staff_user)
    return client


@pytest.fixture
def data(worker, other_worker):
    """``worker`` with something in every tier (some of it hostile), ``other_worker`` with
    its own, recognisable, memory."""
    active = active_memory_create(
        worker=worker,
        title="Build auth",
        template_yaml=TASK_TEMPLATE,
        initial_sections={
            "objective": "Add **JWT** auth to the gateway",
            "progress": f"Login endpoint done. {XSS}",
        },
    )
    active_memory_update_sections(memory=active, sections={"progress": f"Tokens issued. {XSS}"})
    auth = shortterm_memory_create(
        worker=worker,
        title="Auth gateway",
        summary="Who owns the gateway and what it uses",
        chunks=[
            {"content": GRAPH_TEXT, "metadata": {"source": "standup"}},
            {"content": f"Redis caches sessions. {XSS}"},
        ],
    )
    alice = Entity.objects.get(worker=worker, normalized_name="alice chen")
    gateway = Entity.objects.get(worker=worker, normalized_name="auth gateway")
    memory_graph_update(
        memory=auth,
        entities=[{"id": gateway.pk, "description": XSS}],
        new_relationships=[
            {"from_id": gateway.pk, "to_id": alice.pk, "type": "maintained_by", "description": XSS}
        ],
    )
    hostile = shortterm_memory_create(
        worker=worker, title="Hostile <img src=x onerror=alert(1)>", content="Plain text here."
    )
    hostile_entity = Entity.objects.filter(source_memory=hostile).first() or Entity.objects.create(
        worker=worker,
        tier="shortterm",
        source_memory=hostile,
        name="x",
        normalized_name="x",
        type="other",
        first_seen=hostile.created_at,
        last_seen=hostile.created_at,
    )
    memory_graph_update(memory=hostile, entities=[{"id": hostile_entity.pk, "name": XSS}])

    other_active = active_memory_create(
        worker=other_worker,
        title="Other agent secret plan",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "OTHER-AGENT-OBJECTIVE"},
    )
    other = shortterm_memory_create(
        worker=other_worker,
        title="Other agent notes",
        content="Zed Quorra owns the billing ledger. OTHER-AGENT-CHUNK about the auth gateway.",
    )
    return {
        "active": active,
        "auth": auth,
        "hostile": hostile,
        "alice": alice,
        "gateway": gateway,
        "hostile_entity": hostile_entity,
        "other_active": other_active,
        "other": other,
        "other_entity": Entity.objects.filter(worker=other_worker).first(),
    }


def _urls(worker, data) -> list[str]:
    """Every page and fragment of the tier browser for ``worker``."""
    page = reverse("review:browser-worker", args=[worker.pk])
    return [
        reverse("review:browser"),
        page,
        f"{page}?tab=active",
        f"{page}?tab=shortterm",
        f"{page}?tab=shortterm&open={data['auth'].pk}",
        f"{page}?tab=graph",
        f"{page}?tab=graph&entity={data['alice'].pk}&hops=2",
        f"{reverse('review:browser-search', args=[worker.pk])}?q=auth+gateway",
        reverse("review:browser-chunks", args=[worker.pk, data["auth"].pk]),
        reverse("review:browser-chunks", args=[worker.pk, data["hostile"].pk]),
        f"{reverse('review:browser-entities', args=[worker.pk])}?prefix=al",
        reverse("review:browser-entities", args=[worker.pk]),
        reverse("review:browser-neighbourhood", args=[worker.pk, data["alice"].pk]) + "?hops=2",
        reverse("review:browser-neighbourhood", args=[worker.pk, data["hostile_entity"].pk]),
    ]


def _html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


# Access --------------------------------------------------------------------------------


def test_it_sends_anonymous_people_to_the_login_page(client, worker, data):
    for url in _urls(worker, data):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


def test_it_refuses_logged_in_people_who_are_not_staff(client, worker, data):
    client.force_login(UserFactory())
    for url in _urls(worker, data):
        assert client.get(url).status_code == 403, url
        assert client.get(url, HTTP_HX_REQUEST="true").status_code == 403, url


def test_staff_open_every_page_and_fragment(staff, worker, data):
    for url in _urls(worker, data):
        assert staff.get(url).status_code == 200, url
        assert staff.get(url, HTTP_HX_REQUEST="true").status_code == 200, url


def test_htmx_gets_only_the_fragment_and_a_plain_request_the_whole_page(staff, worker, data):
    for url in _urls(worker, data)[1:]:  # the worker list is a page only
        full = _html(staff.get(url))
        assert "<html" in full and "browser.css" in full and "browser-graph.js" in full, url
        fragment = _html(staff.get(url, HTTP_HX_REQUEST="true"))
        assert "<html" not in fragment and "<body" not in fragment, url
    assert staff.get(reverse("review:browser")).content.decode().count("<html") == 1


def test_htmx_restoring_history_gets_the_whole_page(staff, worker, data):
    url = reverse("review:browser-worker", args=[worker.pk]) + "?tab=graph"
    html = _html(staff.get(url, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"))
    assert "<html" in html


def test_unknown_workers_memories_and_entities_are_404(staff, worker, data):
    missing = 10**9
    assert staff.get(reverse("review:browser-worker", args=[missing])).status_code == 404
    assert staff.get(reverse("review:browser-search", args=[missing]) + "?q=x").status_code == 404
    assert staff.get(reverse("review:browser-chunks", args=[worker.pk, missing])).status_code == 404
    url = reverse("review:browser-neighbourhood", args=[worker.pk, missing])
    assert staff.get(url, HTTP_HX_REQUEST="true").status_code == 404


# Isolation -----------------------------------------------------------------------------


def test_one_workers_memory_never_shows_on_another_workers_page(staff, worker, data):
    page = reverse("review:browser-worker", args=[worker.pk])
    seen = "".join(_html(staff.get(url)) for url in _urls(worker, data)[1:])
    seen += _html(staff.get(f"{page}?tab=graph&prefix=zed"))
    seen += _html(staff.get(reverse("review:browser-search", args=[worker.pk]) + "?q=OTHER-AGENT"))
    for secret in ("Other agent", "OTHER-AGENT-OBJECTIVE", "OTHER-AGENT-CHUNK", "Zed Quorra"):
        assert secret not in seen, secret


def test_another_workers_memory_or_entity_is_404_under_this_worker(staff, worker, data):
    chunks = reverse("review:browser-chunks", args=[worker.pk, data["other"].pk])
    assert staff.get(chunks).status_code == 404
    assert staff.get(chunks, HTTP_HX_REQUEST="true").status_code == 404
    neighbourhood = reverse(
        "review:browser-neighbourhood", args=[worker.pk, data["other_entity"].pk]
    )
    assert staff.get(neighbourhood).status_code == 404
    assert staff.get(neighbourhood, HTTP_HX_REQUEST="true").status_code == 404
    page = reverse("review:browser-worker", args=[worker.pk])
    assert staff.get(f"{page}?tab=graph&entity={data['other_entity'].pk}").status_code == 404
    assert staff.get(f"{page}?tab=shortterm&open={data['other'].pk}").status_code == 404


# Untrusted content ---------------------------------------------------------------------


class _Markup(HTMLParser):
    """The elements and attributes a browser would build from a page."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _inert(html: str, where: str) -> None:
    parser = _Markup()
    parser.feed(html)
    for tag, attrs in parser.tags:
        assert tag not in ("img", "iframe", "object", "embed"), (where, tag, attrs)
        # The only scripts are our own: htmx, the graph's code and the graph's JSON data.
        if tag == "script":
            assert "src" in attrs or attrs.get("type") == "application/json", (where, attrs)
        handlers = [name for name in attrs if name.startswith("on")]
        assert not handlers, (where, tag, handlers)
    assert "<script>alert" not in html and "onerror=alert(1)>" not in html, where


def test_hostile_content_renders_inert_on_every_page_and_fragment(staff, worker, data):
    for url in _urls(worker, data):
        _inert(_html(staff.get(url)), url)
        _inert(_html(staff.get(url, HTTP_HX_REQUEST="true")), f"{url} (htmx)")


def test_hostile_content_stays_readable_as_text(staff, worker, data):
    html = _html(staff.get(reverse("review:browser-worker", args=[worker.pk])))
    assert "Tokens issued." in html  # the section, its markup dropped by the sanitiser
    assert "<strong>JWT</strong>" in html  # markdown is rendered
    chunks = reverse("review:browser-chunks", args=[worker.pk, data["auth"].pk])
    html = _html(staff.get(chunks, HTTP_HX_REQUEST="true"))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # plain text, escaped
    assert "Hostile &lt;img src=x onerror=alert(1)&gt;" in _html(
        staff.get(reverse("review:browser-worker", args=[worker.pk]) + "?tab=shortterm")
    )


# The worker list -----------------------------------------------------------------------


def test_the_worker_list_counts_each_tier(staff, worker, other_worker, data):
    MergeConflict.objects.create(worker=worker, section_id="progress", section_content="x")
    MergeConflict.objects.create(
        worker=worker, section_id="progress", section_content="y", status="resolved"
    )
    html = _html(staff.get(reverse("review:browser")))
    row = re.search(r'<tr data-worker="owner-agent">(.*?)</tr>', html, re.S).group(1)

    def cell(col):
        return re.search(rf'data-col="{col}">(.*?)</td>', row, re.S).group(1)

    assert cell("active").strip() == "1"
    assert cell("shortterm").strip() == "2"
    assert cell("chunks").strip() == "3"
    assert int(cell("entities").strip()) == Entity.objects.filter(worker=worker).count() > 3
    assert ">1</a>" in cell("conflicts") and f"/review/?worker={worker.pk}" in cell("conflicts")
    assert "ago" in cell("last_activity")
    assert reverse("review:browser-worker", args=[worker.pk]) in row
    assert 'data-worker="other-agent"' in html


def test_the_worker_list_says_how_workers_appear_when_there_are_none(staff):
    html = _html(staff.get(reverse("review:browser")))
    assert "No workers yet" in html and "make token" in html


# The worker page -----------------------------------------------------------------------


def test_the_worker_page_has_a_header_and_a_tab_per_tier(staff, worker, data):
    html = _html(staff.get(reverse("review:browser-worker", args=[worker.pk])))
    assert worker.name in html and worker.description in html
    assert 'data-count="chunks">3<' in html and 'data-count="shortterm">2<' in html
    tabs = re.findall(r'role="tab" id="tab-(\w+)"', html)
    assert tabs == ["active", "shortterm", "graph", "longterm"]  # its pages: test_longterm_pages
    assert 'aria-selected="true"' in html and 'data-tab="active"' in html


def test_an_unknown_tab_shows_the_active_tab(staff, worker, data):
    html = _html(staff.get(reverse("review:browser-worker", args=[worker.pk]) + "?tab=archive"))
    assert 'data-tab="active"' in html


def test_the_active_tab_shows_sections_with_update_counts_and_capacity(
    staff, worker, data, settings
):
    settings.MEMORYHUB_MIGRATION = {
        **settings.MEMORYHUB_MIGRATION,
        "capacity_updates": 4,
        "capacity_memories": 10,
        "min_update_count": 1,
    }
    html = _html(staff.get(reverse("review:browser-worker", args=[worker.pk]) + "?tab=active"))
    assert "Build auth" in html and "Objective" in html and "Progress" in html
    assert 'data-section="progress"' in html
    # progress was updated once (pending), objective never
    assert 'data-update-count="1"' in html and 'data-update-count="0"' in html
    assert "1 section pending" in html
    # 1 pending update of 4: 25%; 1 memory of 10: 10% — the fuller measure counts
    assert 'data-capacity="25"' in html and "of 4 pending section updates" in html
    assert 'aria-valuenow="25"' in html


def test_the_active_tab_says_when_the_capacity_trigger_is_off(staff, worker, data):
    html = _html(staff.get(reverse("review:browser-worker", args=[worker.pk])))
    assert "trigger off" in html and "1 pending section update in 1 active memory" in html


def test_the_shortterm_tab_lists_memories_with_status_and_opens_chunks(staff, worker, data):
    ShorttermMemory.objects.filter(pk=data["hostile"].pk).update(
        extraction_status=ExtractionStatus.FAILED,
        extraction_error="LLM unreachable: connection refused",
        extraction_attempts=2,
    )
    url = reverse("review:browser-worker", args=[worker.pk]) + "?tab=shortterm"
    html = _html(staff.get(url))
    assert "Auth gateway" in html and "Who owns the gateway" in html
    assert "Failed (will retry)" in html and "LLM unreachable: connection refused" in html
    assert "2 attempts" in html and "Done" in html
    assert reverse("review:browser-chunks", args=[worker.pk, data["auth"].pk]) in html
    assert 'hx-trigger="toggle once"' in html

    fragment = _html(
        staff.get(
            reverse("review:browser-chunks", args=[worker.pk, data["auth"].pk]),
            HTTP_HX_REQUEST="true",
        )
    )
    first, second = fragment.index("#0"), fragment.index("#1")
    assert first < second and "Alice Chen owns the auth gateway" in fragment
    assert "<b>source</b> standup" in fragment

    opened = _html(staff.get(f"{url}&open={data['auth'].pk}"))
    assert f'id="shortterm-{data["auth"].pk}" data-memory="{data["auth"].pk}" open' in opened
    assert "Alice Chen owns the auth gateway" in opened


def test_the_shortterm_tab_pages(staff, worker):
    for n in range(23):
        shortterm_memory_create(worker=worker, title=f"Note {n:02}", content=f"Note number {n}.")
    url = reverse("review:browser-worker", args=[worker.pk]) + "?tab=shortterm"
    first = _html(staff.get(url))
    assert "Page 1 of 2" in first and "Note 22" in first and "Note 02" not in first
    second = _html(staff.get(url + "&page=2", HTTP_HX_REQUEST="true"))
    assert "Page 2 of 2" in second and "Note 00" in second and "Note 22" not in second
    assert _html(staff.get(url + "&page=junk")).count("Page 1 of 2") == 1


def test_empty_tabs_say_how_they_fill(staff, worker):
    page = reverse("review:browser-worker", args=[worker.pk])
    assert "No active memory" in _html(staff.get(page))
    assert "No shortterm memory" in _html(staff.get(page + "?tab=shortterm"))
    html = _html(staff.get(page + "?tab=graph"))
    assert "No entities yet" in html and "Pick an entity" in html


# The graph tab -------------------------------------------------------------------------


def test_the_graph_tab_lists_entities_and_filters_them_by_prefix(staff, worker, data):
    html = _html(staff.get(reverse("review:browser-worker", args=[worker.pk]) + "?tab=graph"))
    for name in ("Alice Chen", "auth gateway", "Acme Corp", "Bob Stone"):
        assert name in html
    assert "person" in html and "from “Auth gateway”" in html

    url = reverse("review:browser-entities", args=[worker.pk])
    fragment = _html(staff.get(url + "?prefix=ac", HTTP_HX_REQUEST="true"))
    assert fragment.lstrip().startswith('<div id="entity-list"')
    assert "Acme Corp" in fragment and "Alice Chen" not in fragment
    assert "starting with “ac”" in fragment


def test_a_prefix_without_letters_is_a_form_error(staff, worker, data):
    url = reverse("review:browser-entities", args=[worker.pk])
    fragment = _html(staff.get(url + "?prefix=%21%21%21", HTTP_HX_REQUEST="true"))
    assert 'class="error" role="alert"' in fragment and "must not be empty" in fragment
    page = reverse("review:browser-worker", args=[worker.pk]) + "?tab=graph&prefix=%21%21"
    assert 'role="alert"' in _html(staff.get(page))


def test_an_entity_neighbourhood_carries_the_graph_and_the_same_data_as_tables(staff, worker, data):
    alice = data["alice"]
    url = reverse("review:browser-neighbourhood", args=[worker.pk, alice.pk])
    response = staff.get(url + "?hops=2", HTTP_HX_REQUEST="true")
    fragment = _html(response)
    assert "HX-Push-Url" in response and f"entity={alice.pk}" in response["HX-Push-Url"]
    graph = json.loads(
        re.search(
            r'<script id="graph-data" type="application/json">(.*?)</script>', fragment, re.S
        ).group(1)
    )
    names = {node["name"]: node["distance"] for node in graph["nodes"]}
    assert graph["center"] == alice.pk and names["Alice Chen"] == 0
    assert names["auth gateway"] == 1 and names["Acme Corp"] == 1
    assert names["Bob Stone"] == 2 and names["JWT"] == 2
    types = {edge["type"] for edge in graph["edges"]}
    assert {"OWNS", "WORKS_FOR", "USES", "MAINTAINED_BY"} <= types
    assert len(graph["edges"]) == Relationship.objects.filter(worker=worker).count()
    # The table below the drawing: every relationship with both ends' names.
    assert "<td>Bob Stone</td><td><code>WORKS_FOR</code></td><td>Acme Corp</td>" in fragment
    assert 'class="is-current" aria-current="true">2 hops' in fragment
    # Each other entity of the table recentres the drawing.
    gateway = reverse("review:browser-neighbourhood", args=[worker.pk, data["gateway"].pk])
    assert f'hx-get="{gateway}?hops=2"' in fragment

    one_hop = json.loads(
        re.search(
            r'<script id="graph-data" type="application/json">(.*?)</script>',
            _html(staff.get(url, HTTP_HX_REQUEST="true")),
            re.S,
        ).group(1)
    )
    assert {node["distance"] for node in one_hop["nodes"]} == {0, 1}
    assert _html(staff.get(url + "?hops=7")).count("1 hop within") == 0  # clamped to 1 hop


def test_a_selected_entity_shows_in_the_whole_graph_tab(staff, worker, data):
    page = reverse("review:browser-worker", args=[worker.pk])
    html = _html(staff.get(f"{page}?tab=graph&entity={data['alice'].pk}"))
    assert f'data-graph data-center="{data["alice"].pk}"' in html
    assert 'class="bt-entity is-selected"' in html


# Search --------------------------------------------------------------------------------


def test_search_shows_each_hits_component_scores(staff, worker, data):
    url = reverse("review:browser-search", args=[worker.pk])
    response = staff.get(url + "?q=who+owns+the+auth+gateway&limit=5", HTTP_HX_REQUEST="true")
    fragment = _html(response)
    assert fragment.lstrip().startswith('<section id="search-results"')
    assert response["HX-Push-Url"].endswith("?q=who+owns+the+auth+gateway&limit=5")
    hits = re.findall(r'<li class="bt-hit" data-chunk="(\d+)">', fragment)
    assert 1 <= len(hits) <= 3
    first = fragment.split('<li class="bt-hit"')[1]
    assert "Auth gateway" in first and "Alice Chen owns the auth gateway" in first
    for score in ("fused", "similarity", "bm25", "vector_rank", "bm25_rank"):
        assert f'data-score="{score}"' in first
    values = re.findall(r'<span class="bt-value">([^<]*)<', first)
    fused, similarity, bm25, vector_rank, bm25_rank = values
    assert float(fused) > 0 and -1 <= float(similarity) <= 1 and float(bm25) > 0
    assert vector_rank.startswith("#") and bm25_rank.startswith("#")
    assert re.search(r'style="width: (\d+)%"', first)

    whole = _html(staff.get(url + "?q=who+owns+the+auth+gateway"))
    assert "<html" in whole and 'data-score="fused"' in whole
    assert 'value="who owns the auth gateway"' in whole


@pytest.mark.parametrize(
    ("query", "message"),
    [("", "Type what to search for."), ("   ", "Type what to search for."), ("x" * 4001, "4000")],
)
def test_a_bad_query_is_a_form_error_never_a_500(staff, worker, data, query, message):
    url = reverse("review:browser-search", args=[worker.pk])
    for kwargs in ({"HTTP_HX_REQUEST": "true"}, {}):
        html = _html(staff.get(url, {"q": query}, **kwargs))
        assert 'class="error" role="alert"' in html and message in html
        assert "bt-hit" not in html
    assert 'role="alert"' in _html(staff.get(url, HTTP_HX_REQUEST="true"))  # no q at all
    assert _html(staff.get(url, {"q": "auth", "limit": "9999"})).count('role="alert"') == 1


def test_a_search_without_hits_says_so(staff, worker):
    url = reverse("review:browser-search", args=[worker.pk])
    assert "Nothing in this worker" in _html(staff.get(url, {"q": "anything"}))


def test_the_search_reads_only_this_workers_chunks(staff, worker, other_worker, data):
    WorkerFactory(name="third")  # an empty worker beside them
    url = reverse("review:browser-search", args=[other_worker.pk])
    html = _html(staff.get(url, {"q": "auth gateway"}, HTTP_HX_REQUEST="true"))
    assert "OTHER-AGENT-CHUNK" in html and "Alice Chen" not in html
