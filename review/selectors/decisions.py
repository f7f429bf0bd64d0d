"""Reads over reviewers' decisions: the decision log (decisions in force and undone ones,
newest first), the labelled pairs they make for the detector's calibration, and the
detector's precision per reason against them.

How a decision labels its conflict (the labels of ``manage.py calibrate_migration``):

- ``accept_incoming``, ``merge_edited``, ``keep_existing`` → ``conflict``: the texts
  really disagreed, and the reviewer settled which one holds;
- ``separate_memory`` → ``new``: the section is about something else and is kept beside
  the chunk;
- ``dismiss`` → ``merge``: not a conflict, the texts agree.

Undone decisions label nothing: they are no one's judgement any more.
"""

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime

from django.contrib.auth import get_user_model
from django.db.models import BooleanField, F, Q, QuerySet, Value

from consolidation.models import Decision
from memoryhub.errors import ConflictError, NotFoundError
from memoryhub.models import ApiToken, Worker
from memoryhub.text import word_diff
from review.models import ConflictResolution, MergeConflict, UndoneResolution

DECISION_LABEL = {
    Decision.ACCEPT_INCOMING: "conflict",
    Decision.MERGE_EDITED: "conflict",
    Decision.KEEP_EXISTING: "conflict",
    Decision.SEPARATE_MEMORY: "new",
    Decision.DISMISS: "merge",
}
REAL_CONFLICT = "conflict"

# What each reason code of the detector (consolidation.checks, consolidation.judge) means,
# as the precision page says it: "flagged as <label>".
REASON_LABELS = {
    "number_changed": "number change",
    "date_changed": "date change",
    "version_changed": "version change",
    "negation_flip": "negation",
    "value_replaced": "replaced single value",
    "functional_relationship_changed": "changed single-valued relationship",
    "entity_type_changed": "changed entity type",
    "low_entity_overlap": "same words, other entities",
    "other_subject": "other subject",
    "llm_contradiction": "contradiction (LLM judge)",
    "llm_other_subject": "other subject (LLM judge)",
    "claim_value_changed": "value changed (claims)",
    "claim_text_value_changed": "value changed (texts)",
    "claim_negation_flip": "negation (claims)",
    "claim_opposite": "reversed state",
    "claim_reversal": "stopped or replaced",
    "claim_regressed": "status moved back",
    "claim_tech_swap": "technology replaced",
    "claim_name_swap": "name replaced",
    "claim_single_valued_swap": "replaced single value (claims)",
    "claim_subject_swap": "subject changed",
    "claim_swap_person": "person replaced",
    "claim_swap_organization": "organization replaced",
    "claim_swap_location": "place replaced",
    "claim_swap_technology": "technology replaced",
    "claim_swap_component": "component replaced",
    "claim_judge": "contradiction (claim judge)",
}

STATES = ("in_force", "undone")


def reason_label(code: str) -> str:
    return REASON_LABELS.get(code, code.replace("_", " "))


# --- the decision log -------------------------------------------------------------------


@dataclass(frozen=True)
class Who:
    """A decider choice of the log's filter: ``u<id>`` a user, ``t<id>`` an API token."""

    key: str
    label: str


@dataclass
class LogEntry:
    id: int  # the resolution's id (kept when it is undone)
    conflict: MergeConflict
    decision: str
    decision_label: str
    who: str
    by_token: bool
    at: datetime
    note: str
    undone: bool
    undone_by: str = ""
    undone_at: datetime | None = None
    before_caption: str = ""
    after_caption: str = ""
    before_segments: list[tuple[str, str]] = field(default_factory=list)
    after_segments: list[tuple[str, str]] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)  # what the detector flagged, in words
    resolution: ConflictResolution | None = None  # the record in force (None once undone)
    undo_refusal: str | None = None  # filled by the page for the reader who may undo


def _filtered(
    queryset: QuerySet,
    *,
    worker_id: int | None,
    decision: str | None,
    who: str | None,
    date_from: date | None,
    date_to: date | None,
) -> QuerySet:
    if worker_id:
        queryset = queryset.filter(conflict__worker_id=worker_id)
    if decision:
        queryset = queryset.filter(decision=decision)
    if who:
        kind, _, number = who.partition(":")
        if kind == "u" and number.isdigit():
            queryset = queryset.filter(resolved_by_id=int(number))
        elif kind == "t" and number.isdigit():
            queryset = queryset.filter(resolved_by_token_id=int(number))
        else:
            queryset = queryset.none()
    if date_from:
        queryset = queryset.filter(resolved_at__date__gte=date_from)
    if date_to:
        queryset = queryset.filter(resolved_at__date__lte=date_to)
    return queryset


def decision_log(
    *,
    worker_id: int | None = None,
    decision: str | None = None,
    who: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    state: str | None = None,
) -> QuerySet:
    """Every decision, newest first, as rows ``(id, undone, at)`` (a queryset a Paginator
    can count and slice; ``decision_log_entries`` turns a page of it into entries).
    ``who``: ``u<id>`` (a user) or ``t<id>`` (an API token); ``state``: ``in_force`` or
    ``undone``."""
    filters = {
        "worker_id": worker_id,
        "decision": decision,
        "who": who,
        "date_from": date_from,
        "date_to": date_to,
    }
    columns = ("entry_id", "entry_undone", "entry_at")
    live = (
        _filtered(ConflictResolution.objects.all(), **filters)
        .annotate(
            entry_id=F("pk"),
            entry_undone=Value(False, output_field=BooleanField()),
            entry_at=F("resolved_at"),
        )
        .values_list(*columns)
    )
    undone = (
        _filtered(UndoneResolution.objects.all(), **filters)
        .annotate(
            entry_id=F("resolution_id"),
            entry_undone=Value(True, output_field=BooleanField()),
            entry_at=F("resolved_at"),
        )
        .values_list(*columns)
    )
    if state == "in_force":
        rows = live
    elif state == "undone":
        rows = undone
    else:
        rows = live.union(undone, all=True)
    return rows.order_by("-entry_at", "-entry_id")


def _token_label(token: ApiToken | None) -> str:
    if token is None:
        return ""
    return f"{token.name or token.prefix} (API token)"


def decider(resolution) -> tuple[str, bool]:
    """Who took a decision: a user name, or an API token's label (then True)."""
    if resolution.resolved_by_id:
        return resolution.resolved_by.get_username(), False
    if resolution.resolved_by_token_id:
        return _token_label(resolution.resolved_by_token), True
    return "unknown", False


def _texts(record, conflict: MergeConflict) -> tuple[str, str, str, str]:
    """``(before caption, before text, after caption, after text)`` of a decision."""
    before, after = record.before or {}, record.after or {}
    chunks = conflict.conflicting_chunks or [{}]
    chunk_id = chunks[0].get("chunk_id")
    existing = chunks[0].get("content", "")
    if record.decision in (Decision.ACCEPT_INCOMING, Decision.MERGE_EDITED):
        chunk = f"chunk #{before.get('chunk_id', chunk_id)}"
        return (
            f"{chunk} before",
            before.get("content", existing),
            f"{chunk} after",
            after.get("content", ""),
        )
    if record.decision == Decision.SEPARATE_MEMORY:
        return (
            f"chunk #{chunk_id}, unchanged",
            existing,
            f"stored as new memory #{after.get('shortterm_memory_id', '?')}",
            conflict.section_content,
        )
    if record.decision == Decision.KEEP_EXISTING:
        return (
            f"chunk #{chunk_id}, kept",
            existing,
            "incoming section, not applied",
            conflict.section_content,
        )
    return (
        f"chunk #{chunk_id}, unchanged",
        existing,
        "incoming section, judged no conflict",
        conflict.section_content,
    )


def _entry(record, *, undone: bool) -> LogEntry:
    conflict = record.conflict
    who, by_token = decider(record)
    before_caption, before_text, after_caption, after_text = _texts(record, conflict)
    before_segments, after_segments = word_diff(before_text, after_text)
    if record.decision not in (Decision.ACCEPT_INCOMING, Decision.MERGE_EDITED):
        # memory was not rewritten: the two texts differ, nothing was deleted or inserted
        before_segments = [("mark" if k != "same" else k, t) for k, t in before_segments]
        after_segments = [("mark" if k != "same" else k, t) for k, t in after_segments]
    return LogEntry(
        id=record.resolution_id if undone else record.pk,
        conflict=conflict,
        decision=record.decision,
        decision_label=Decision(record.decision).label,
        who=who,
        by_token=by_token,
        at=record.resolved_at,
        note=record.note,
        undone=undone,
        undone_by=(record.undone_by.get_username() if undone and record.undone_by else ""),
        undone_at=record.undone_at if undone else None,
        before_caption=before_caption,
        after_caption=after_caption,
        before_segments=before_segments,
        after_segments=after_segments,
        reasons=list(
            dict.fromkeys(reason_label(r["code"]) for r in conflict.reasons if r.get("code"))
        ),
        resolution=None if undone else record,
    )


def decision_log_entries(rows) -> list[LogEntry]:
    """The entries of a page of ``decision_log`` rows, in the rows' order."""
    rows = list(rows)
    related = (
        "conflict__worker",
        "conflict__active_memory",
        "resolved_by",
        "resolved_by_token",
    )
    live = ConflictResolution.objects.select_related(*related).in_bulk(
        [entry_id for entry_id, undone, _ in rows if not undone]
    )
    undone = {
        record.resolution_id: record
        for record in UndoneResolution.objects.select_related(*related, "undone_by").filter(
            resolution_id__in=[entry_id for entry_id, undone, _ in rows if undone]
        )
    }
    entries = []
    for entry_id, is_undone, _ in rows:
        record = (undone if is_undone else live).get(entry_id)
        if record is not None:  # undone or deleted between the two reads
            entries.append(_entry(record, undone=is_undone))
    return entries


def decided_workers(*, with_undone: bool = True) -> list[Worker]:
    """Workers with at least one decision (in force, or also undone), by name."""
    decided = Q(conflicts__resolution__isnull=False)
    if with_undone:
        decided |= Q(conflicts__undone_resolutions__isnull=False)
    return list(Worker.objects.filter(decided).distinct().order_by("name"))


def decision_log_choices() -> dict:
    """What the log's filters offer: workers with decisions, deciders, decisions."""
    User = get_user_model()
    users = User.objects.filter(
        Q(pk__in=ConflictResolution.objects.values("resolved_by"))
        | Q(pk__in=UndoneResolution.objects.values("resolved_by"))
    ).order_by(User.USERNAME_FIELD)
    tokens = ApiToken.objects.filter(
        Q(pk__in=ConflictResolution.objects.values("resolved_by_token"))
        | Q(pk__in=UndoneResolution.objects.values("resolved_by_token"))
    ).order_by("name", "pk")
    return {
        "workers": decided_workers(),
        "deciders": [Who(f"u:{u.pk}", u.get_username()) for u in users]
        + [Who(f"t:{t.pk}", _token_label(t)) for t in tokens],
        "decisions": Decision.choices,
    }


def decision_get(*, resolution_id: int) -> ConflictResolution:
    """The decision in force with this id; a ConflictError when it was undone."""
    resolution = (
        ConflictResolution.objects.select_related("conflict__worker")
        .filter(pk=resolution_id)
        .first()
    )
    if resolution is not None:
        return resolution
    undone = (
        UndoneResolution.objects.select_related("undone_by")
        .filter(resolution_id=resolution_id)
        .first()
    )
    if undone is None:
        raise NotFoundError(f"decision {resolution_id} not found")
    by = f" by {undone.undone_by.get_username()}" if undone.undone_by else ""
    raise ConflictError(
        f"decision {resolution_id} was already undone{by} at {undone.undone_at:%Y-%m-%d %H:%M}",
        code="already_undone",
    )


def decision_log_entry(*, resolution_id: int) -> LogEntry:
    """One entry of the log (in force or undone), by its id."""
    record = (
        ConflictResolution.objects.select_related(
            "conflict__worker", "conflict__active_memory", "resolved_by", "resolved_by_token"
        )
        .filter(pk=resolution_id)
        .first()
    )
    if record is not None:
        return _entry(record, undone=False)
    record = (
        UndoneResolution.objects.select_related(
            "conflict__worker",
            "conflict__active_memory",
            "resolved_by",
            "resolved_by_token",
            "undone_by",
        )
        .filter(resolution_id=resolution_id)
        .first()
    )
    if record is None:
        raise NotFoundError(f"decision {resolution_id} not found")
    return _entry(record, undone=True)


# --- labelled pairs for calibration -----------------------------------------------------


def _labelled(*, worker: Worker | None, since: date | datetime | None) -> QuerySet:
    resolutions = ConflictResolution.objects.select_related("conflict__worker").order_by(
        "resolved_at", "pk"
    )
    if worker is not None:
        resolutions = resolutions.filter(conflict__worker=worker)
    if isinstance(since, datetime):
        resolutions = resolutions.filter(resolved_at__gte=since)
    elif since is not None:
        resolutions = resolutions.filter(resolved_at__date__gte=since)
    return resolutions


def review_label_count(
    *, worker: Worker | None = None, since: date | datetime | None = None
) -> int:
    """How many decided conflicts ``review_labels`` reads."""
    return _labelled(worker=worker, since=since).count()


def review_labels(
    *, worker: Worker | None = None, since: date | datetime | None = None
) -> Iterator[dict]:
    """One labelled pair per decided conflict and conflicting chunk, oldest decision
    first, in the format ``manage.py calibrate_migration --pairs`` reads: ``id``, ``kind``
    (the decision), ``label`` (``DECISION_LABEL``), ``existing`` (the chunk's text when
    the conflict was found), ``incoming`` (the section's text); and, for the record,
    ``conflict_id``, ``chunk_id``, ``worker``, ``reasons`` and ``resolved_at``. Undone
    decisions are left out."""
    resolutions = _labelled(worker=worker, since=since)
    for resolution in resolutions.iterator(chunk_size=500):
        conflict = resolution.conflict
        codes = sorted({r.get("code") for r in conflict.reasons if r.get("code")})
        for chunk in conflict.conflicting_chunks:
            if not chunk.get("content"):
                continue
            yield {
                "id": f"review-{resolution.pk}-{chunk.get('chunk_id')}",
                "kind": resolution.decision,
                "label": DECISION_LABEL[resolution.decision],
                "existing": chunk["content"],
                "incoming": conflict.section_content,
                "conflict_id": conflict.pk,
                "chunk_id": chunk.get("chunk_id"),
                "worker": conflict.worker.name,
                "reasons": codes,
                "resolved_at": resolution.resolved_at.isoformat(),
            }


# --- the detector's precision -----------------------------------------------------------


@dataclass
class ReasonPrecision:
    """How one reason code fared with the reviewers."""

    code: str
    label: str
    decisions: int = 0  # decided conflicts that carried it
    real: int = 0  # of those, judged real conflicts
    new: int = 0  # judged another subject (separate memory)
    agree: int = 0  # judged not a conflict (dismissed)
    pending: int = 0  # still waiting for a reviewer
    bar: float = 0.0  # share of the widest bar, 0-100
    real_bar: float = 0.0  # the real conflicts' part of it, 0-100

    @property
    def not_real(self) -> int:
        return self.decisions - self.real

    @property
    def precision(self) -> float | None:
        return self.real / self.decisions if self.decisions else None


def detector_precision(*, worker: Worker | None = None) -> dict:
    """Per reason code: how many decided conflicts carried it and how many of those the
    reviewers judged real conflicts (``DECISION_LABEL``), with precision; most decided
    first. ``overall`` counts each decided conflict once. Undone decisions do not count."""
    decided = ConflictResolution.objects.all()
    pending = MergeConflict.objects.filter(status=MergeConflict.Status.PENDING)
    if worker is not None:
        decided = decided.filter(conflict__worker=worker)
        pending = pending.filter(worker=worker)
    figures: dict[str, ReasonPrecision] = {}
    overall = ReasonPrecision(code="", label="any reason")

    def tally(target: ReasonPrecision, label: str) -> None:
        target.decisions += 1
        target.real += label == REAL_CONFLICT
        target.new += label == "new"
        target.agree += label == "merge"

    for decision, reasons in decided.values_list("decision", "conflict__reasons").iterator():
        label = DECISION_LABEL[decision]
        tally(overall, label)
        for code in {r.get("code") for r in reasons or [] if r.get("code")}:
            tally(figures.setdefault(code, ReasonPrecision(code, reason_label(code))), label)
    for reasons in pending.values_list("reasons", flat=True).iterator():
        for code in {r.get("code") for r in reasons or [] if r.get("code")}:
            figures.setdefault(code, ReasonPrecision(code, reason_label(code))).pending += 1
    rows = sorted(figures.values(), key=lambda f: (-f.decisions, -f.pending, f.code))
    widest = max((f.decisions for f in rows), default=0)
    for row in rows:
        row.bar = 100 * row.decisions / widest if widest else 0.0
        row.real_bar = 100 * row.real / widest if widest else 0.0
    return {"reasons": rows, "overall": overall}
