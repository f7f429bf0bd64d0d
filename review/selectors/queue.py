"""Reads of the review queue's pages: the filtered queue with its counts, a conflict laid
out for a reviewer (texts side by side with a word diff, the detector's reasons in plain
language with their evidence, the figures, the graph differences, a proposed merge), and
the pending count of the site header."""

import re
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from consolidation.services.active_to_shortterm import merge_sentences
from memoryhub.models import Worker
from memoryhub.text import inline_word_diff, word_diff
from review.models import MergeConflict
from review.selectors.decisions import decider, reason_label
from tiers.models import ShorttermChunk

AGES = {
    "1h": ("older than an hour", timedelta(hours=1)),
    "1d": ("older than a day", timedelta(days=1)),
    "7d": ("older than a week", timedelta(days=7)),
}
STATUSES = tuple(MergeConflict.Status.values)

# What each reason means, said to a reviewer. ``{detail}`` is the detector's own detail.
REASON_TEXT = {
    "number_changed": "A number differs between two statements that otherwise match: {detail}.",
    "date_changed": "A date differs between two statements that otherwise match: {detail}.",
    "version_changed": "A version differs between two statements that otherwise match: {detail}.",
    "negation_flip": "One text says the opposite of the other ({detail}).",
    "value_replaced": "Something that holds one value at a time (a preference, an owner, a "
    "manager, a home…) was given another value: {detail}.",
    "functional_relationship_changed": "The extracted graph has a relationship that allows "
    "one target pointing elsewhere: {detail}.",
    "entity_type_changed": "The same name is a different kind of thing in the two texts: {detail}.",
    "low_entity_overlap": "The texts read alike but name different things: {detail}.",
    "other_subject": "The matching statements are about other things: {detail}.",
    "llm_contradiction": "The LLM judge read a contradiction: {detail}",
    "llm_other_subject": "The LLM judge read two different subjects: {detail}",
    "claim_value_changed": "Two claims about the same thing give different values: {detail}.",
    "claim_text_value_changed": "The texts give different values of one kind: {detail}.",
    "claim_negation_flip": "One claim negates the other ({detail}).",
    "claim_reversal": "The incoming text ends or reverses the stored fact ({detail}).",
    "claim_opposite": "A state turned into its opposite: {detail}.",
    "claim_regressed": "A status moved backwards ({detail}).",
    "claim_judge": "The claim judge read a contradiction: {detail}",
}
RULE_OR_MODEL = {"llm_contradiction": "model", "llm_other_subject": "model"}
NUMBERISH = re.compile(
    r"\d|\b(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b|"
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class QueueFilters:
    status: str = "pending"
    worker_id: int | None = None
    reason: str | None = None
    age: str | None = None
    q: str = ""

    def as_query(self) -> dict:
        """The non-default filters, for links that keep them."""
        query = {"status": self.status} if self.status != "pending" else {}
        query |= {"worker": self.worker_id} if self.worker_id else {}
        query |= {"reason": self.reason} if self.reason else {}
        query |= {"age": self.age} if self.age else {}
        query |= {"q": self.q} if self.q else {}
        return query


def _filtered(filters: QueueFilters, *, with_status: bool = True) -> QuerySet[MergeConflict]:
    queryset = MergeConflict.objects.all()
    if with_status and filters.status in STATUSES:
        queryset = queryset.filter(status=filters.status)
    if filters.worker_id:
        queryset = queryset.filter(worker_id=filters.worker_id)
    if filters.reason:
        queryset = queryset.filter(reasons__contains=[{"code": filters.reason}])
    if filters.age in AGES:
        queryset = queryset.filter(created_at__lte=timezone.now() - AGES[filters.age][1])
    if filters.q:
        queryset = queryset.filter(
            Q(section_content__icontains=filters.q)
            | Q(section_name__icontains=filters.q)
            | Q(active_memory__title__icontains=filters.q)
            | Q(conflicting_chunks__icontains=filters.q)
        )
    return queryset


def conflict_queue(*, filters: QueueFilters) -> QuerySet[MergeConflict]:
    """The queue, newest first."""
    return (
        _filtered(filters)
        .select_related("worker", "active_memory", "resolution__resolved_by")
        .order_by("-created_at", "-id")
    )


def queue_status_counts(*, filters: QueueFilters) -> dict[str, int]:
    """How many conflicts of each status match the other filters."""
    rows = dict(
        _filtered(filters, with_status=False)
        .values("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    return {status: rows.get(status, 0) for status in STATUSES}


def queue_choices() -> dict:
    """The filters' choices: workers with conflicts, the reason codes that occur (one
    query each, in PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT DISTINCT r ->> 'code' FROM {MergeConflict._meta.db_table} c,
                       jsonb_array_elements(c.reasons) r
                WHERE jsonb_typeof(c.reasons) = 'array' AND r ->> 'code' IS NOT NULL"""
        )
        codes = [row[0] for row in cursor.fetchall()]
    return {
        "workers": list(Worker.objects.filter(conflicts__isnull=False).distinct().order_by("name")),
        "reasons": sorted((code, reason_label(code)) for code in codes),
        "ages": [(key, label) for key, (label, _) in AGES.items()],
        "statuses": list(MergeConflict.Status.choices),
    }


def conflict_status_counts(*, worker_ids: list[int]) -> dict[int, dict[str, int]]:
    """Each worker's conflicts per status."""
    counts: dict[int, dict[str, int]] = {}
    rows = (
        MergeConflict.objects.filter(worker_id__in=worker_ids)
        .values("worker_id", "status")
        .annotate(n=Count("id"))
    )
    for row in rows:
        counts.setdefault(row["worker_id"], {})[row["status"]] = row["n"]
    return counts


def pending_reason_counts(*, worker_ids: list[int]) -> dict:
    """The workers' pending conflicts, and how many carry each reason code:
    ``{"pending": n, "codes": {code: conflicts}}``."""
    pending = MergeConflict.objects.filter(
        worker_id__in=worker_ids, status=MergeConflict.Status.PENDING
    )
    codes: dict[str, int] = {}
    for reasons in pending.values_list("reasons", flat=True):
        for code in {r.get("code") for r in reasons if isinstance(r, dict) and r.get("code")}:
            codes[code] = codes.get(code, 0) + 1
    return {"pending": pending.count(), "codes": codes}


def pending_count() -> int:
    return MergeConflict.objects.filter(status=MergeConflict.Status.PENDING).count()


def queue_neighbours(*, conflict: MergeConflict, filters: QueueFilters) -> dict:
    """The conflicts before and after this one in the queue's order (newest first), and
    the next pending one to open after a decision (the next older one, else the newest)."""
    queryset = _filtered(filters).order_by("-created_at", "-id")
    newer = (
        queryset.filter(
            Q(created_at__gt=conflict.created_at)
            | Q(created_at=conflict.created_at, id__gt=conflict.pk)
        )
        .order_by("created_at", "id")
        .values_list("pk", flat=True)
        .first()
    )
    older = (
        queryset.filter(
            Q(created_at__lt=conflict.created_at)
            | Q(created_at=conflict.created_at, id__lt=conflict.pk)
        )
        .values_list("pk", flat=True)
        .first()
    )
    return {"previous": newer, "next": older}


def next_pending(*, after: MergeConflict, filters: QueueFilters) -> MergeConflict | None:
    """The pending conflict to open once ``after`` is decided."""
    pending = QueueFilters(**{**filters.__dict__, "status": MergeConflict.Status.PENDING})
    queryset = _filtered(pending).exclude(pk=after.pk).order_by("-created_at", "-id")
    older = queryset.filter(
        Q(created_at__lt=after.created_at) | Q(created_at=after.created_at, id__lt=after.pk)
    ).first()
    return older or queryset.first()


def conflict_for_page(*, conflict_id) -> MergeConflict | None:
    try:
        return MergeConflict.objects.select_related(
            "worker",
            "active_memory",
            "shortterm_memory",
            "resolution__resolved_by",
            "resolution__resolved_by_token",
        ).get(pk=int(conflict_id))
    except (MergeConflict.DoesNotExist, ValueError, TypeError):
        return None


@dataclass
class Side:
    """One conflicting chunk beside the incoming text."""

    chunk_id: int
    memory_id: int | None
    memory_title: str
    content: str  # the chunk as it is now (or as it was, when it is gone)
    gone: bool
    changed_since: bool  # the chunk was rewritten after the conflict was found
    figures: list[tuple[str, str]]
    existing_segments: list[tuple[str, str]]
    incoming_segments: list[tuple[str, str]]
    reasons: list[dict] = field(default_factory=list)
    llm: dict | None = None
    judge: list[dict] | None = None  # the claim judge's probabilities (``_judge``)


def emphasised(segments: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Changed segments holding a number or a date get their own kind (``del-num``,
    ``ins-num``), so the page can stress them."""
    return [
        (f"{kind}-num" if kind != "same" and NUMBERISH.search(text) else kind, text)
        for kind, text in segments
    ]


def _spans(text: str, span) -> str:
    if not (isinstance(span, list) and len(span) == 2 and all(isinstance(i, int) for i in span)):
        return ""
    return text[span[0] : span[1]].strip()


def _explained(reason: dict, incoming: str, existing: str) -> dict:
    code = reason.get("code", "")
    detail = str(reason.get("detail") or "").rstrip(".")
    template = REASON_TEXT.get(code, "The detector flagged: {detail}.")
    return {
        "code": code,
        "label": reason_label(code),
        "text": template.format(detail=detail),
        "by": "model" if code.startswith("claim_") else RULE_OR_MODEL.get(code, "rule"),
        "incoming_span": _spans(incoming, reason.get("incoming")),
        "existing_span": _spans(existing, reason.get("existing")),
    }


def _figures(chunk: dict) -> list[tuple[str, str]]:
    names = (
        ("similarity", "cosine similarity"),
        ("entity_overlap", "entity overlap (Jaccard)"),
        ("entity_containment", "entity containment"),
        ("relationship_overlap", "relationship overlap"),
    )
    return [
        (label, f"{chunk[key]:.2f}")
        for key, label in names
        if isinstance(chunk.get(key), (int, float))
    ]


def _judge(chunk: dict) -> list[dict] | None:
    """The claim judge's probabilities for the chunk, most likely first: ``[{"label",
    "share" (0..1), "percent" (for the bar)}]``; None when no judge decided."""
    judged = chunk.get("judge")
    probabilities = judged.get("probabilities") if isinstance(judged, dict) else None
    if not isinstance(probabilities, dict):
        return None
    shares = [
        {"label": label, "share": float(probabilities[label])}
        for label in ("conflict", "merge", "new")
        if isinstance(probabilities.get(label), (int, float))
    ]
    return [s | {"percent": round(100 * s["share"], 1)} for s in shares] or None


def _stored_chunks(conflict: MergeConflict) -> dict[int, ShorttermChunk]:
    """The conflicting chunks as they are now (a deleted one is missing)."""
    return {
        c.pk: c
        for c in ShorttermChunk.objects.filter(
            worker_id=conflict.worker_id,
            pk__in=[c.get("chunk_id") for c in conflict.conflicting_chunks],
        ).select_related("memory")
    }


def conflict_layout(*, conflict: MergeConflict) -> dict:
    """Everything the conflict page shows."""
    incoming = conflict.section_content
    stored = _stored_chunks(conflict)
    sides = []
    for chunk in conflict.conflicting_chunks:
        now = stored.get(chunk.get("chunk_id"))
        content = now.content if now else chunk.get("content", "")
        existing_segments, incoming_segments = word_diff(content, incoming)
        sides.append(
            Side(
                chunk_id=chunk.get("chunk_id"),
                memory_id=now.memory_id if now else chunk.get("memory_id"),
                memory_title=now.memory.title if now else "",
                content=content,
                gone=now is None,
                changed_since=bool(now and now.content != chunk.get("content", now.content)),
                figures=_figures(chunk),
                existing_segments=emphasised(existing_segments),
                incoming_segments=emphasised(incoming_segments),
                reasons=[
                    _explained(r, incoming, content)
                    for r in conflict.reasons
                    if r.get("chunk_id") in (None, chunk.get("chunk_id"))
                ],
                llm=chunk.get("llm") if isinstance(chunk.get("llm"), dict) else None,
                judge=_judge(chunk),
            )
        )
    primary = sides[0] if sides else None
    return {
        "sides": sides,
        "proposed_merge": merge_sentences(primary.content, incoming) if primary else incoming,
        "entity_differences": conflict.entity_differences or {},
        "relationship_differences": conflict.relationship_differences or {},
    }


def merge_preview(*, conflict: MergeConflict, text: str) -> list[tuple[str, str]]:
    """The edited merge against the chunk it would replace (the first conflicting one, as
    it is now), as one text with deletions and insertions marked."""
    first = conflict.conflicting_chunks[0] if conflict.conflicting_chunks else {}
    now = _stored_chunks(conflict).get(first.get("chunk_id"))
    existing = now.content if now else first.get("content", "")
    return emphasised(inline_word_diff(existing, text))


def resolution_summary(*, conflict: MergeConflict) -> dict | None:
    """Who resolved the conflict and when ("already resolved by X at T")."""
    resolution = getattr(conflict, "resolution", None)
    if resolution is None:
        return None
    who, _ = decider(resolution)
    return {
        "who": who,
        "at": resolution.resolved_at,
        "decision": resolution.get_decision_display(),
        "note": resolution.note,
    }
