"""The review queue (``/review/``), a conflict's page with the reviewer's actions, the
live merge preview, and the header's pending badge. Reads come from
``review.selectors.queue``; a decision is ``review.services.conflicts.conflict_resolve``
(the same service the API calls)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url

from consolidation.models import Decision
from memoryhub.errors import ConflictError, DomainError
from memoryhub.htmx import htmx_partial
from review.selectors.queue import (
    QueueFilters,
    conflict_for_page,
    conflict_layout,
    conflict_queue,
    merge_preview,
    next_pending,
    pending_count,
    queue_choices,
    queue_neighbours,
    queue_status_counts,
    resolution_summary,
)
from review.services.conflicts import conflict_resolve

PAGE_SIZE = 25
RESOLVE_PERMISSION = "review.resolve_conflict"
# The keyboard: one key per decision (the page lists them).
SHORTCUTS = [
    ("a", Decision.ACCEPT_INCOMING, "accept incoming"),
    ("k", Decision.KEEP_EXISTING, "keep existing"),
    ("m", Decision.MERGE_EDITED, "merge (edit, then Ctrl+Enter)"),
    ("s", Decision.SEPARATE_MEMORY, "store as a separate memory"),
    ("d", Decision.DISMISS, "not a conflict"),
]


class QueueFilterForm(forms.Form):
    status = forms.ChoiceField(required=False)
    worker = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    reason = forms.ChoiceField(required=False)
    age = forms.ChoiceField(required=False)
    q = forms.CharField(required=False, max_length=200, strip=True)

    def __init__(self, *args, choices: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["status"].choices = [("", "pending"), *choices["statuses"]]
        self.fields["worker"].choices = [("", "all workers")] + [
            (w.pk, w.name) for w in choices["workers"]
        ]
        self.fields["reason"].choices = [("", "any reason"), *choices["reasons"]]
        self.fields["age"].choices = [("", "any age"), *choices["ages"]]

    def filters(self) -> QueueFilters:
        """The valid filters; a bad value is dropped (and shown as a form error)."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return QueueFilters(
            status=data.get("status") or "pending",
            worker_id=data.get("worker"),
            reason=data.get("reason") or None,
            age=data.get("age") or None,
            q=data.get("q") or "",
        )


def _filters(request) -> QueueFilters:
    return QueueFilterForm(request.GET, choices=queue_choices()).filters()


@login_required
@vary_on_headers("HX-Request")
def queue_view(request):
    form = QueueFilterForm(request.GET, choices=queue_choices())
    filters = form.filters()
    page = Paginator(conflict_queue(filters=filters), PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "form": form,
        "filters": filters,
        "query": urlencode(filters.as_query()),
        "page": page,
        "counts": queue_status_counts(filters=filters),
        "filtered": bool(filters.as_query()),
    }
    if htmx_partial(request):
        return render(request, "review/queue/partials/_list.html", context)
    return render(request, "review/queue/queue.html", context)


@login_required
def pending_badge_view(request):
    return render(request, "review/queue/partials/_badge.html", {"pending": pending_count()})


def _panel_context(request, conflict, filters: QueueFilters, **extra) -> dict:
    return {
        "conflict": conflict,
        "layout": conflict_layout(conflict=conflict),
        "neighbours": queue_neighbours(conflict=conflict, filters=filters),
        "resolved": resolution_summary(conflict=conflict),
        "can_resolve": request.user.has_perm(RESOLVE_PERMISSION),
        "shortcuts": SHORTCUTS,
        "query": urlencode(filters.as_query()),
        "decisions": Decision,
    } | extra


def _panel(request, conflict, filters: QueueFilters, *, status: int = 200, **extra):
    context = _panel_context(request, conflict, filters, **extra)
    if htmx_partial(request):
        return render(request, "review/queue/partials/_panel.html", context, status=status)
    return render(request, "review/queue/detail.html", context, status=status)


@login_required
@vary_on_headers("HX-Request")
def conflict_view(request, conflict_id: int):
    conflict = conflict_for_page(conflict_id=conflict_id)
    if conflict is None:
        raise Http404(f"conflict {conflict_id} not found")
    return _panel(request, conflict, _filters(request))


def _detail_url(conflict_id: int, query: str) -> str:
    url = reverse("review:conflict", args=[conflict_id])
    return f"{url}?{query}" if query else url


@login_required
@require_POST
def resolve_view(request, conflict_id: int):
    if not request.user.has_perm(RESOLVE_PERMISSION):
        raise PermissionDenied("resolving conflicts needs the review.resolve_conflict permission")
    conflict = conflict_for_page(conflict_id=conflict_id)
    if conflict is None:
        raise Http404(f"conflict {conflict_id} not found")
    filters = _filters(request)
    decision = request.POST.get("decision", "")
    edited = request.POST.get("edited_text")
    note = request.POST.get("note", "").strip()
    try:
        conflict_resolve(
            conflict=conflict, decision=decision, user=request.user, edited_text=edited, note=note
        )
    except ConflictError as exc:
        # Someone else decided first, or the chunk is gone: show it, apply nothing.
        conflict = conflict_for_page(conflict_id=conflict_id)
        return _panel(
            request,
            conflict,
            filters,
            error=exc.detail,
            error_code=exc.code,
            edited_text=edited,
            note=note,
        )
    except DomainError as exc:
        return _panel(
            request,
            conflict,
            filters,
            error=exc.detail,
            fields=exc.fields,
            edited_text=edited,
            note=note,
        )
    done = f"Conflict #{conflict.pk}: {Decision(decision).label.lower()}."
    following = next_pending(after=conflict, filters=filters)
    query = urlencode(filters.as_query())
    if htmx_partial(request):
        if following is None:
            response = render(
                request,
                "review/queue/partials/_done.html",
                {"done": done, "query": query, "pending": pending_count()},
            )
            return push_url(response, reverse("review:queue") + (f"?{query}" if query else ""))
        response = _panel(request, following, filters, done=done, pending=pending_count())
        return push_url(response, _detail_url(following.pk, query))
    messages.success(request, done)
    if following is None:
        return redirect(reverse("review:queue") + (f"?{query}" if query else ""))
    return redirect(_detail_url(following.pk, query))


@login_required
@require_POST
def merge_preview_view(request, conflict_id: int):
    conflict = conflict_for_page(conflict_id=conflict_id)
    if conflict is None:
        raise Http404(f"conflict {conflict_id} not found")
    segments = merge_preview(conflict=conflict, text=request.POST.get("edited_text", ""))
    return render(request, "review/queue/partials/_preview.html", {"segments": segments})


urlpatterns = [
    path("review/", queue_view, name="queue"),
    path("review/badge", pending_badge_view, name="pending-badge"),
    path("review/<int:conflict_id>/", conflict_view, name="conflict"),
    path("review/<int:conflict_id>/resolve", resolve_view, name="resolve"),
    path("review/<int:conflict_id>/preview", merge_preview_view, name="merge-preview"),
]
