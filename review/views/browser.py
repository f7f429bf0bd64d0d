"""The staff's tier browser: the workers with the size of their tiers, and one worker's
page with a tab per tier (Active, Shortterm, Graph, Longterm) and a search box over its
shortterm chunks; a longterm source's history page (its versions on a timeline, the word
diff between them); a shortterm memory's promotion score beside its chunks, with a
"Promote now" button. Reads come from ``review.selectors.browser`` and
``review.selectors.longterm`` (and the tiers' own selectors); the search is
``tiers.search.search`` behind it; the button is ``promotion_request``.

Each fragment an htmx request asks for (a tab, the search results, a memory's chunks, the
entity list, an entity's neighbourhood) answers the whole worker page, in the same state,
to a request without htmx, so every link works without JavaScript and can be reloaded.
"""

from functools import wraps

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url

from consolidation.services.shortterm_to_longterm import promotion_request
from memoryhub.errors import DomainError, NotFoundError
from memoryhub.htmx import htmx_partial
from review.selectors.browser import (
    BROWSER_HOPS,
    browser_active_memories,
    browser_capacity,
    browser_entities,
    browser_neighbourhood,
    browser_search,
    browser_worker,
    browser_workers,
)
from review.selectors.longterm import browser_chunk_history, browser_promotion
from tiers.selectors.active import active_memory_list
from tiers.selectors.longterm import longterm_chunks, longterm_counts
from tiers.selectors.shortterm import shortterm_memory_get, shortterm_memory_list

TABS = (
    ("active", "Active"),
    ("shortterm", "Shortterm"),
    ("graph", "Graph"),
    ("longterm", "Longterm"),
)
ACTIVE_PAGE_SIZE = 10
SHORTTERM_PAGE_SIZE = 20
LONGTERM_PAGE_SIZE = 20
ENTITY_LIMIT = 100
SEARCH_LIMITS = (5, 10, 20, 50)
TEMPLATES = "review/browser/"


def staff_required(view):
    """Login first (anonymous users go to the login page); then staff only (403)."""

    @wraps(view)
    @login_required
    def wrapped(request, *args, **kwargs):
        if not request.user.is_staff:
            raise PermissionDenied("The tier browser is for staff.")
        return view(request, *args, **kwargs)

    return vary_on_headers("HX-Request")(wrapped)


class SearchForm(forms.Form):
    q = forms.CharField(
        label="Search",
        max_length=settings.MEMORYHUB_SEARCH["max_query_chars"],
        strip=True,
        error_messages={"required": "Type what to search for."},
    )
    limit = forms.TypedChoiceField(
        label="Hits",
        coerce=int,
        choices=[(n, n) for n in SEARCH_LIMITS],
        initial=10,
        required=False,
        empty_value=10,
    )


class EntityFilterForm(forms.Form):
    prefix = forms.CharField(label="Name starts with", max_length=300, required=False, strip=True)


class AsOfForm(forms.Form):
    """The Longterm tab's date picker: what was valid then (empty: the current versions).
    A ``datetime-local`` value (``2026-11-23T14:05``) or a date, in the server's zone."""

    as_of = forms.DateTimeField(
        label="As of",
        required=False,
        error_messages={"invalid": "Enter a date and time, e.g. 2026-11-23T14:05."},
    )


def _partial(request) -> bool:
    """A fragment is wanted: htmx, but neither a boosted navigation nor the restore of a
    page missing from htmx's history cache (that one needs the whole page)."""
    return htmx_partial(request) and not request.htmx.history_restore_request


def _int(value, default: int | None = None) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _worker_or_404(worker_id: int):
    try:
        return browser_worker(worker_id=worker_id)
    except NotFoundError as exc:
        raise Http404(exc.detail) from exc


def _worker_url(worker_id: int, **query) -> str:
    query = {key: value for key, value in query.items() if value not in (None, "")}
    url = reverse("review:browser-worker", args=[worker_id])
    return f"{url}?{urlencode(query)}" if query else url


# The panels: each builds the context of one fragment -----------------------------------


def _search_context(row, params) -> dict:
    """The search panel: nothing until a query is sent; a form error, never a 500."""
    if "q" not in params:
        return {"search_form": SearchForm(), "searched": False}
    form = SearchForm(params)
    hits = []
    if form.is_valid():
        try:
            hits = browser_search(
                worker=row.worker, query=form.cleaned_data["q"], limit=form.cleaned_data["limit"]
            )
        except DomainError as exc:
            form.add_error("q", exc.fields.get("query") or exc.detail)
    return {"search_form": form, "searched": form.is_valid(), "hits": hits}


def _active_context(row, params) -> dict:
    page = Paginator(active_memory_list(worker=row.worker), ACTIVE_PAGE_SIZE).get_page(
        params.get("page")
    )
    return {
        "capacity": browser_capacity(worker=row.worker),
        "page": page,
        "cards": browser_active_memories(page.object_list),
    }


def _chunks_context(row, memory_id) -> dict:
    try:
        memory = shortterm_memory_get(worker=row.worker, memory_id=memory_id, with_chunks=True)
    except NotFoundError as exc:
        raise Http404(exc.detail) from exc
    return {
        "memory": memory,
        "chunks": list(memory.chunks.all()),
        "promotion": browser_promotion(memory=memory),
    }


def _shortterm_context(row, params) -> dict:
    page = Paginator(shortterm_memory_list(worker=row.worker), SHORTTERM_PAGE_SIZE).get_page(
        params.get("page")
    )
    context = {"page": page, "open_id": _int(params.get("open"))}
    if context["open_id"] is not None:
        context["open"] = _chunks_context(row, context["open_id"])
    return context


def _longterm_context(row, params) -> dict:
    """The current longterm versions, or those valid at the picked moment; a form error
    (never a 500) for a date that does not parse."""
    form = AsOfForm(params)
    as_of = form.cleaned_data["as_of"] if form.is_valid() else None
    try:
        chunks = longterm_chunks(worker=row.worker, valid_at=as_of)
    except DomainError as exc:
        form.add_error("as_of", exc.fields.get("valid_at") or exc.detail)
        as_of, chunks = None, longterm_chunks(worker=row.worker)
    page = Paginator(chunks, LONGTERM_PAGE_SIZE).get_page(params.get("page"))
    return {
        "as_of_form": form,
        "as_of": as_of,
        "as_of_value": timezone.localtime(as_of).strftime("%Y-%m-%dT%H:%M") if as_of else "",
        "pager_extra": urlencode({"as_of": params["as_of"]}) if as_of else "",
        "longterm_counts": longterm_counts(worker=row.worker),
        "page": page,
    }


def _entities_context(row, params) -> dict:
    form = EntityFilterForm(params)
    listing = {"entities": [], "total": 0, "limit": ENTITY_LIMIT}
    if form.is_valid():
        try:
            listing = browser_entities(
                worker=row.worker, prefix=form.cleaned_data["prefix"], limit=ENTITY_LIMIT
            )
        except DomainError as exc:
            form.add_error("prefix", exc.fields.get("prefix") or exc.detail)
    return {
        "entity_form": form,
        "prefix": form.cleaned_data.get("prefix", "") if form.is_valid() else "",
        "selected_id": _int(params.get("entity")),
        **listing,
    }


def _neighbourhood_context(row, entity_id, params) -> dict:
    hops = _int(params.get("hops"), BROWSER_HOPS[0])
    try:
        found = browser_neighbourhood(worker=row.worker, entity_id=entity_id, hops=hops)
    except NotFoundError as exc:
        raise Http404(exc.detail) from exc
    worker_id = row.worker.pk

    def fragment_url(eid: int, hops: int) -> str:
        url = reverse("review:browser-neighbourhood", args=[worker_id, eid])
        return f"{url}?{urlencode({'hops': hops})}"

    # Each entity recentres the drawing: a fragment for htmx, a page without it.
    found["entities"] = [
        e
        | {
            "url": fragment_url(e["id"], found["hops"]),
            "page_url": _worker_url(worker_id, tab="graph", entity=e["id"], hops=found["hops"]),
        }
        for e in found["entities"]
    ]
    # What the SVG is drawn from (static/js/browser-graph.js reads it with JSON.parse).
    graph = {
        "center": found["center"]["id"],
        "nodes": [
            {key: e[key] for key in ("id", "name", "type", "distance", "url", "page_url")}
            for e in found["entities"]
        ],
        "edges": [
            {"id": r["id"], "from": r["from_id"], "to": r["to_id"], "type": r["type"]}
            for r in found["relationships"]
        ],
    }
    hop_links = [
        {
            "hops": n,
            "url": fragment_url(found["center"]["id"], n),
            "page_url": _worker_url(worker_id, tab="graph", entity=found["center"]["id"], hops=n),
        }
        for n in BROWSER_HOPS
    ]
    return {
        "neighbourhood": found,
        "graph": graph,
        "hop_links": hop_links,
        "page_url": _worker_url(
            worker_id, tab="graph", entity=found["center"]["id"], hops=found["hops"]
        ),
    }


def _graph_context(row, params) -> dict:
    context = _entities_context(row, params)
    if context["selected_id"] is not None:
        context |= _neighbourhood_context(row, context["selected_id"], params)
    return context


PANELS = {
    "active": _active_context,
    "shortterm": _shortterm_context,
    "graph": _graph_context,
    "longterm": _longterm_context,
}


def _worker_page(row, params, *, search=None) -> dict:
    """The whole worker page in the state ``params`` (its query string) asks for."""
    tab = params.get("tab") if params.get("tab") in PANELS else TABS[0][0]
    return {
        "row": row,
        "worker": row.worker,
        "tabs": [
            {"key": key, "label": label, "count": count}
            for (key, label), count in zip(
                TABS,
                (row.active_memories, row.shortterm_memories, row.entities, row.longterm_chunks),
                strict=True,
            )
        ],
        "tab": tab,
        **(search or _search_context(row, {})),
        **PANELS[tab](row, params),
    }


# Views -----------------------------------------------------------------------------------


@staff_required
def browser_view(request):
    return render(request, TEMPLATES + "workers.html", {"rows": browser_workers()})


@staff_required
def worker_view(request, worker_id: int):
    row = _worker_or_404(worker_id)
    context = _worker_page(row, request.GET)
    if _partial(request):
        return render(request, TEMPLATES + "partials/_tabs.html", context)
    return render(request, TEMPLATES + "worker.html", context)


@staff_required
def search_view(request, worker_id: int):
    row = _worker_or_404(worker_id)
    search = _search_context(row, request.GET.dict() | {"q": request.GET.get("q", "")})
    if _partial(request):
        context = {"row": row, "worker": row.worker, **search}
        response = render(request, TEMPLATES + "partials/_search_results.html", context)
        return push_url(response, request.get_full_path()) if search["searched"] else response
    return render(request, TEMPLATES + "worker.html", _worker_page(row, request.GET, search=search))


@staff_required
def chunks_view(request, worker_id: int, memory_id: int):
    row = _worker_or_404(worker_id)
    if _partial(request):
        context = {"worker": row.worker, **_chunks_context(row, memory_id)}
        return render(request, TEMPLATES + "partials/_chunks.html", context)
    params = request.GET.copy()
    params["tab"], params["open"] = "shortterm", str(memory_id)
    return render(request, TEMPLATES + "worker.html", _worker_page(row, params))


@require_POST
@staff_required
def promote_view(request, worker_id: int, memory_id: int):
    """Promote a shortterm memory now, whatever its score (``promotion_request``); refused
    while a conflict about it awaits a reviewer. Answers the memory's chunks and score
    (htmx) or goes back to them."""
    row = _worker_or_404(worker_id)
    try:
        outcome = promotion_request(worker=row.worker, memory_id=memory_id)
    except NotFoundError as exc:
        raise Http404(exc.detail) from exc
    except DomainError as exc:
        result = {"ok": False, "text": exc.detail}
    else:
        if outcome.unchanged:
            text = "Promoted before with the same content: no new version."
        else:
            created = len(outcome.versions_created)
            text = f"Promoted: {created} new longterm version{'s' if created != 1 else ''}."
        result = {"ok": True, "text": text}
    if _partial(request):
        context = {"worker": row.worker, "promote_result": result}
        context |= _chunks_context(row, memory_id)
        return render(request, TEMPLATES + "partials/_chunks.html", context)
    (messages.success if result["ok"] else messages.error)(request, result["text"])
    return redirect("review:browser-chunks", worker_id=row.worker.pk, memory_id=memory_id)


@staff_required
def longterm_history_view(request, worker_id: int, source_id: int):
    """A longterm source's versions: the timeline, the table, the word diffs. 404 for a
    source the worker never promoted."""
    row = _worker_or_404(worker_id)
    try:
        history = browser_chunk_history(worker=row.worker, shortterm_memory_id=source_id)
    except NotFoundError as exc:
        raise Http404(exc.detail) from exc
    context = {"row": row, "worker": row.worker, "history": history}
    return render(request, TEMPLATES + "history.html", context)


@staff_required
def entities_view(request, worker_id: int):
    row = _worker_or_404(worker_id)
    if _partial(request):
        context = {"worker": row.worker, **_entities_context(row, request.GET)}
        return render(request, TEMPLATES + "partials/_entities.html", context)
    params = request.GET.copy()
    params["tab"] = "graph"
    return render(request, TEMPLATES + "worker.html", _worker_page(row, params))


@staff_required
def neighbourhood_view(request, worker_id: int, entity_id: int):
    row = _worker_or_404(worker_id)
    if _partial(request):
        context = {"worker": row.worker, **_neighbourhood_context(row, entity_id, request.GET)}
        response = render(request, TEMPLATES + "partials/_neighbourhood.html", context)
        # The address bar shows the page this state belongs to (reload and back work).
        return push_url(response, context["page_url"])
    params = request.GET.copy()
    params["tab"], params["entity"] = "graph", str(entity_id)
    return render(request, TEMPLATES + "worker.html", _worker_page(row, params))


urlpatterns = [
    path("browse/", browser_view, name="browser"),
    path("browse/<int:worker_id>/", worker_view, name="browser-worker"),
    path("browse/<int:worker_id>/search", search_view, name="browser-search"),
    path(
        "browse/<int:worker_id>/shortterm/<int:memory_id>/chunks",
        chunks_view,
        name="browser-chunks",
    ),
    path(
        "browse/<int:worker_id>/shortterm/<int:memory_id>/promote",
        promote_view,
        name="browser-promote",
    ),
    path(
        "browse/<int:worker_id>/longterm/<int:source_id>/history",
        longterm_history_view,
        name="browser-longterm-history",
    ),
    path("browse/<int:worker_id>/entities", entities_view, name="browser-entities"),
    path(
        "browse/<int:worker_id>/entities/<int:entity_id>/neighbourhood",
        neighbourhood_view,
        name="browser-neighbourhood",
    ),
]
