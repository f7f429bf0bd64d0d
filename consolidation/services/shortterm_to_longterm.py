"""Consolidation from Shortterm to Longterm: promotion by importance (seed 001) into
temporal versions (seed 000), the promotion sweep, and shortterm retention.

One memory is checked and promoted in one transaction, under its row lock: its score,
breakdown and history are written with the versions and graph it promotes, so a crash
leaves either all of it or none. Promoting a memory whose chunks and graph did not change
since its last promotion writes no version (its fingerprint is kept on its promotion
state): the sweep can run twice, or beside another sweep, without duplicating anything.
"""

import hashlib
import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from consolidation.models import ConsolidationRun, PromotionDecider, PromotionState
from consolidation.review_queue import review_queue
from consolidation.scoring import PromotionDecision, UsageFacts, decide, memory_type_of
from graph.services.longterm import graph_fingerprint_parts, graph_promote
from memoryhub.errors import ConflictError, NotFoundError
from memoryhub.models import Worker
from tiers.models import MemoryUsage, ShorttermChunk, ShorttermMemory
from tiers.services.longterm import SourceChunk, content_hash, longterm_versions_write
from tiers.services.shortterm import shortterm_memory_delete

logger = logging.getLogger(__name__)
MAX_RUN_OUTCOMES = 500  # outcomes listed on a sweep's run record (the counts cover all)


@dataclass
class PromotionOutcome:
    memory_id: int
    promoted: bool
    decided_by: str
    reason: str
    score: float | None
    versions_created: list[int] = field(default_factory=list)
    versions_closed: list[int] = field(default_factory=list)
    graph: dict = field(default_factory=dict)
    unchanged: bool = False  # promoted before with the same content: nothing written
    error: str = ""

    def as_dict(self) -> dict:
        return {
            "memory_id": self.memory_id,
            "promoted": self.promoted,
            "decided_by": self.decided_by,
            "reason": self.reason,
            "score": self.score,
            "versions_created": self.versions_created,
            "versions_closed": self.versions_closed,
            "graph": self.graph,
            "unchanged": self.unchanged,
            "error": self.error,
        }


def usage_facts(memory: ShorttermMemory, usage: MemoryUsage | None, *, now, pending: bool):
    """What scoring reads, from the memory's usage summary (none yet: all zero)."""
    if usage is None:
        return UsageFacts(now=now, created_at=memory.created_at, pending_conflict=pending)
    times = []
    for stamp in usage.access_times or []:
        try:
            times.append(datetime.fromisoformat(stamp))
        except (TypeError, ValueError):
            continue
    return UsageFacts(
        now=now,
        created_at=memory.created_at,
        access_count=usage.access_count,
        access_times=tuple(times),
        last_accessed_at=usage.last_accessed_at,
        session_count=usage.session_count,
        confirmations=usage.confirmations,
        corrections=usage.corrections,
        contradictions=usage.contradictions,
        last_contradiction_at=usage.last_contradiction_at,
        reinforcement_count=usage.reinforcement_count,
        user_mentions=usage.user_mentions,
        importance_marks=usage.importance_marks,
        importance=usage.importance,
        pending_conflict=pending,
    )


def memory_fingerprint(memory: ShorttermMemory, chunks: list[ShorttermChunk]) -> str:
    """What a promotion carries: the title, the chunks' contents and the graph."""
    digest = hashlib.sha256(memory.title.encode())
    for chunk in chunks:
        digest.update(f"\x00{chunk.chunk_order}\x00{content_hash(chunk.content)}".encode())
    for part in graph_fingerprint_parts(memory_id=memory.pk):
        digest.update(b"\x01" + part.encode())
    return digest.hexdigest()


def _record(state: PromotionState, decision: PromotionDecision, now) -> None:
    score = decision.score
    state.score = None if score is None else score.composite
    state.breakdown = {} if score is None else score.breakdown()
    state.decided_by = decision.decided_by
    state.reason = decision.reason[:1000]
    state.error = decision.error[:2000]
    state.checked_at = now
    entry = {
        "at": now.isoformat(),
        "score": state.score,
        "decided_by": decision.decided_by,
        "promoted": decision.promote,
    }
    state.history = (list(state.history or []) + [entry])[-PromotionState.MAX_HISTORY :]


def _promote(memory, state, chunks, *, score_value: float, importance: float, now) -> dict:
    """Write the versions and the longterm graph of ``memory`` (caller's transaction)."""
    fingerprint = memory_fingerprint(memory, chunks)
    if fingerprint == state.promoted_fingerprint:
        return {"unchanged": True}
    content = "\n\n".join(chunk.content for chunk in chunks)
    written = longterm_versions_write(
        worker=memory.worker,
        shortterm_memory_id=memory.pk,
        title=memory.title,
        chunks=[
            SourceChunk(
                chunk_order=chunk.chunk_order,
                content=chunk.content,
                embedding=chunk.embedding,
                metadata=chunk.metadata,
            )
            for chunk in chunks
        ],
        confidence=round(min(1.0, max(0.0, score_value / 10)), 4),
        importance=importance,
        memory_type=memory_type_of(content, memory.metadata),
        metadata={"source_title": memory.title, **(memory.metadata or {})},
        now=now,
    )
    graph = graph_promote(worker=memory.worker, memory_id=memory.pk, importance=importance, now=now)
    state.promoted_at = now
    state.promoted_fingerprint = fingerprint
    state.promotions += 1
    return {
        "unchanged": False,
        "created": written.created,
        "closed": written.closed,
        "graph": graph,
    }


def promotion_check(
    *, memory: ShorttermMemory, now=None, promote: bool = True, manual: bool = False
) -> PromotionOutcome:
    """Score one memory, record the score, and promote it when the decision says so (or,
    ``manual``, whatever the score: an agent's or admin's request; never while a conflict
    about it is pending). One transaction under the memory's row lock."""
    config = settings.MEMORYHUB_PROMOTION
    now = now or timezone.now()
    pending = memory.pk in review_queue().pending_memory_ids(memory_ids=[memory.pk])
    with transaction.atomic():
        locked = (
            ShorttermMemory.objects.select_for_update()
            .select_related("worker")
            .filter(pk=memory.pk)
            .first()
        )
        if locked is None:
            raise NotFoundError(f"shortterm memory {memory.pk} not found")
        usage = MemoryUsage.objects.filter(memory=locked).first()
        chunks = list(locked.chunks.order_by("chunk_order"))
        text = "\n\n".join(  # what shortterm_memory_text reads, from the chunks at hand
            part for part in (locked.title, locked.summary, *(c.content for c in chunks)) if part
        )
        facts = usage_facts(locked, usage, now=now, pending=pending)
        decision = decide(facts, text, config)
        if decision.error:
            logger.warning(
                "promotion scoring of memory %s failed, fallback rule decided: %s",
                locked.pk,
                decision.error,
            )
        if manual and not pending:
            decision = PromotionDecision(
                True,
                PromotionDecider.MANUAL,
                "manual promotion request",
                decision.score,
                decision.error,
            )
        state, _ = PromotionState.objects.select_for_update().get_or_create(
            memory=locked, defaults={"worker_id": locked.worker_id}
        )
        _record(state, decision, now)
        outcome = PromotionOutcome(
            memory_id=locked.pk,
            promoted=False,
            decided_by=decision.decided_by,
            reason=decision.reason,
            score=state.score,
            error=decision.error,
        )
        if decision.promote and promote and chunks:
            importance = decision.score.semantic_importance if decision.score else facts.importance
            score_value = state.score if state.score is not None else facts.importance
            written = _promote(
                locked, state, chunks, score_value=score_value, importance=importance, now=now
            )
            outcome.promoted = True
            outcome.unchanged = written["unchanged"]
            outcome.versions_created = written.get("created", [])
            outcome.versions_closed = written.get("closed", [])
            outcome.graph = written.get("graph", {})
        state.save()
    return outcome


def _finish(run: ConsolidationRun, outcomes: list[dict], counts: dict, started: float) -> None:
    run.outcomes = [{"summary": counts}] + outcomes[:MAX_RUN_OUTCOMES]
    run.finished_at = timezone.now()
    run.duration_ms = (time.perf_counter() - started) * 1000
    run.save(update_fields=["outcomes", "finished_at", "duration_ms"])


def promotion_candidates(*, worker_id: int | None = None, limit: int | None = None) -> list[int]:
    """Memories worth checking: those with usage signals, the ones checked longest ago
    (or never) first."""
    queryset = ShorttermMemory.objects.filter(usage__isnull=False)
    if worker_id is not None:
        queryset = queryset.filter(worker_id=worker_id)
    queryset = queryset.order_by("promotion__checked_at", "pk").values_list("pk", flat=True)
    return list(queryset[:limit] if limit else queryset)


def promotion_sweep(
    *,
    worker_id: int | None = None,
    trigger: str = ConsolidationRun.Trigger.SWEEP,
    limit: int | None = None,
    progress=None,
) -> list[int]:
    """Check (and promote) every candidate memory, one transaction each; a memory that
    fails is logged and skipped, never stops the sweep. One run record per worker.
    ``progress(done, total)`` is called as it goes. Returns the run ids."""
    limit = limit or settings.MEMORYHUB_PROMOTION["sweep_batch"]
    ids = promotion_candidates(worker_id=worker_id, limit=limit)
    by_worker: dict[int, list[int]] = {}
    for memory_id, owner in ShorttermMemory.objects.filter(pk__in=ids).values_list(
        "pk", "worker_id"
    ):
        by_worker.setdefault(owner, []).append(memory_id)
    runs, done = [], 0
    for owner, memory_ids in sorted(by_worker.items()):
        started = time.perf_counter()
        run = ConsolidationRun.objects.create(
            worker_id=owner, kind=ConsolidationRun.Kind.PROMOTION, trigger=trigger
        )
        counts = {"checked": 0, "promoted": 0, "unchanged": 0, "failed": 0}
        outcomes = []
        for memory in ShorttermMemory.objects.filter(pk__in=memory_ids).order_by("pk"):
            item_started = time.perf_counter()
            try:
                outcome = promotion_check(memory=memory)
            except Exception as exc:  # one memory must not stop the sweep
                logger.exception("promotion check of memory %s failed", memory.pk)
                counts["failed"] += 1
                outcomes.append(
                    {"memory_id": memory.pk, "outcome": "error", "detail": str(exc)[:500]}
                )
                continue
            finally:
                done += 1
                if progress:
                    progress(done, len(ids))
            counts["checked"] += 1
            if outcome.promoted and not outcome.unchanged:
                counts["promoted"] += 1
            elif outcome.promoted:
                counts["unchanged"] += 1
            if outcome.promoted or outcome.error:
                outcomes.append(
                    outcome.as_dict()
                    | {"ms": round((time.perf_counter() - item_started) * 1000, 2)}
                )
        _finish(run, outcomes, counts, started)
        runs.append(run.pk)
    return runs


def retention_candidates(*, worker_id: int | None = None, now=None) -> list[ShorttermMemory]:
    """Shortterm memories past the retention age that were promoted (and not changed
    since) or scored low; never one a pending conflict is about."""
    config = settings.MEMORYHUB_PROMOTION
    now = now or timezone.now()
    cutoff = now - timedelta(days=config["shortterm_retention_days"])
    queryset = ShorttermMemory.objects.filter(created_at__lt=cutoff, last_updated__lt=cutoff)
    if worker_id is not None:
        queryset = queryset.filter(worker_id=worker_id)
    queryset = queryset.filter(
        Q(promotion__promoted_at__isnull=False)
        | Q(promotion__isnull=True)
        | Q(promotion__score__lt=config["retention_low_score"])
        | Q(promotion__score__isnull=True)
    ).select_related("promotion")
    memories = list(queryset.order_by("pk"))
    pending = review_queue().pending_memory_ids(memory_ids=[m.pk for m in memories])
    return [m for m in memories if m.pk not in pending]


def retention_sweep(
    *, worker_id: int | None = None, trigger: str = ConsolidationRun.Trigger.SWEEP, now=None
) -> list[int]:
    """Remove the retention candidates (chunks and graph with them), one transaction each,
    and log each removal on the worker's run record. A promoted memory changed since its
    promotion is kept (its new content is not in the longterm tier yet); an unscored one
    is scored first."""
    now = now or timezone.now()
    low = settings.MEMORYHUB_PROMOTION["retention_low_score"]
    by_worker: dict[int, list[ShorttermMemory]] = {}
    for memory in retention_candidates(worker_id=worker_id, now=now):
        by_worker.setdefault(memory.worker_id, []).append(memory)
    runs = []
    for owner, memories in sorted(by_worker.items()):
        started = time.perf_counter()
        run = ConsolidationRun.objects.create(
            worker_id=owner, kind=ConsolidationRun.Kind.RETENTION, trigger=trigger
        )
        counts = {"removed": 0, "kept": 0, "failed": 0}
        outcomes = []
        for memory in memories:
            try:
                reason = _retention_reason(memory, now=now, low=low)
                if not reason:
                    counts["kept"] += 1
                    continue
                with transaction.atomic():
                    shortterm_memory_delete(memory=memory)
                counts["removed"] += 1
                outcomes.append(
                    {
                        "memory_id": memory.pk,
                        "title": memory.title,
                        "outcome": "removed",
                        "detail": reason,
                    }
                )
                logger.info("retention removed shortterm memory %s (%s)", memory.pk, reason)
            except Exception as exc:
                logger.exception("retention of memory %s failed", memory.pk)
                counts["failed"] += 1
                outcomes.append(
                    {"memory_id": memory.pk, "outcome": "error", "detail": str(exc)[:500]}
                )
        _finish(run, outcomes, counts, started)
        runs.append(run.pk)
    return runs


def _retention_reason(memory: ShorttermMemory, *, now, low: float) -> str:
    state = PromotionState.objects.filter(memory=memory).first()
    if state is not None and state.promoted_at is not None:
        chunks = list(memory.chunks.order_by("chunk_order"))
        if memory_fingerprint(memory, chunks) == state.promoted_fingerprint:
            return "promoted to longterm"
        return ""
    if state is None or state.score is None:
        outcome = promotion_check(memory=memory, now=now, promote=False)
        score = outcome.score
    else:
        score = state.score
    if score is not None and score < low:
        return f"scored {score} < {low:g}"
    return ""


def promotion_request(*, worker: Worker, memory_id) -> PromotionOutcome:
    """A manual promotion request (API, admin): promote now, whatever the score; refused
    (409) while a conflict about the memory awaits a reviewer."""
    memory = ShorttermMemory.objects.filter(worker=worker, pk=memory_id).first()
    if memory is None:
        raise NotFoundError(
            f"shortterm memory {memory_id} not found", fields={"memory_id": "not found"}
        )
    if review_queue().pending_memory_ids(memory_ids=[memory.pk]):
        raise ConflictError(
            f"a conflict about shortterm memory {memory.pk} awaits a reviewer: resolve it first",
            code="pending_conflict",
        )
    return promotion_check(memory=memory, manual=True)


def promotion_sweep_enqueue(*, worker_id: int, trigger: str = ConsolidationRun.Trigger.API) -> str:
    from django_q.tasks import async_task

    return async_task("consolidation.tasks.sweep_promotions", worker_id, trigger)


def retention_sweep_enqueue(*, worker_id: int, trigger: str = ConsolidationRun.Trigger.API) -> str:
    from django_q.tasks import async_task

    return async_task("consolidation.tasks.sweep_retention", worker_id, trigger)
