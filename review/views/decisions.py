"""The decision log (who decided what, when, before and after; undo) and the detector's
precision against reviewers' decisions. Reads come from ``review.selectors.decisions``,
the undo is ``review.services.conflicts.conflict_undo``."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from memoryhub.errors import ConflictError, NotFoundError
from memoryhub.htmx import htmx_partial
from review.selectors.decisions import (
    STATES,
    decided_workers,
    decision_get,
    decision_log,
    decision_log_choices,
    decision_log_entries,
    decision_log_entry,
    detector_precision,
)
from review.services.conflicts import conflict_undo, conflict_undo_refusal

PAGE_SIZE = 20
RESOLVE_PERMISSION = "review.resolve_conflict"


class LogFilterForm(forms.Form):
    worker = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    decision = forms.ChoiceField(required=False)
    who = forms.ChoiceField(required=False)
    state = forms.ChoiceField(
        required=False,
        choices=[("", "all"), ("in_force", "in force"), ("undone", "undone")],
    )
    date_from = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, choices: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["worker"].choices = [("", "all workers")] + [
            (w.pk, w.name) for w in choices["workers"]
        ]
        self.fields["decision"].choices = [("", "all decisions"), *choices["decisions"]]
        self.fields["who"].choices = [("", "anyone")] + [
            (who.key, who.label) for who in choices["deciders"]
        ]

    def filters(self) -> dict:
        """The valid filters (a bad value is dropped and shown as an error)."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        state = data.get("state")
        return {
            "worker_id": data.get("worker"),
            "decision": data.get("decision") or None,
            "who": data.get("who") or None,
            "date_from": data.get("date_from"),
            "date_to": data.get("date_to"),
            "state": state if state in STATES else None,
        }


def _with_refusals(request, entries):
    """Say, for a reader who may undo, why an undo would be refused."""
    if request.user.has_perm(RESOLVE_PERMISSION):
        for entry in entries:
            if not entry.undone:
                entry.undo_refusal = conflict_undo_refusal(resolution=entry.resolution)
    return entries


@login_required
@vary_on_headers("HX-Request")
def decision_log_view(request):
    form = LogFilterForm(request.GET, choices=decision_log_choices())
    filters = form.filters()
    page = Paginator(decision_log(**filters), PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "form": form,
        "filtered": any(value for value in filters.values()),
        "page": page,
        "entries": _with_refusals(request, decision_log_entries(page.object_list)),
        "can_undo": request.user.has_perm(RESOLVE_PERMISSION),
        "next": request.get_full_path(),
    }
    if htmx_partial(request):
        return render(request, "review/decisions/partials/_log.html", context)
    return render(request, "review/decisions/log.html", context)


@login_required
@require_POST
@permission_required(RESOLVE_PERMISSION, raise_exception=True)
def decision_undo_view(request, resolution_id: int):
    error = None
    try:
        conflict = conflict_undo(
            resolution=decision_get(resolution_id=resolution_id), user=request.user
        )
    except NotFoundError as exc:
        raise Http404(exc.detail) from exc
    except ConflictError as exc:
        error = exc.detail
    if htmx_partial(request):
        entry = _with_refusals(request, [decision_log_entry(resolution_id=resolution_id)])[0]
        context = {"entry": entry, "can_undo": True, "error": error, "just_undone": not error}
        return render(
            request,
            "review/decisions/partials/_entry.html",
            context,
            status=409 if error else 200,
        )
    if error:
        messages.error(request, error)
    else:
        messages.success(
            request, f"Decision undone: conflict #{conflict.pk} is back in the review queue."
        )
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("review:decisions")
    return redirect(target)


@login_required
@vary_on_headers("HX-Request")
def detector_view(request):
    workers = decided_workers(with_undone=False)
    worker = next((w for w in workers if str(w.pk) == request.GET.get("worker")), None)
    context = detector_precision(worker=worker) | {"workers": workers, "worker": worker}
    if htmx_partial(request):
        return render(request, "review/decisions/partials/_detector.html", context)
    return render(request, "review/decisions/detector.html", context)


urlpatterns = [
    path("review/decisions/", decision_log_view, name="decisions"),
    path("review/decisions/<int:resolution_id>/undo", decision_undo_view, name="decision-undo"),
    path("review/detector/", detector_view, name="detector"),
]
