"""Shortterm → Longterm promotion on the real database: versions, graph merge,
idempotence, sweeps, retention, pending conflicts, temporal search."""

from datetime import timedelta

import pytest
from django.utils import timezone

from consolidation.models import ConsolidationRun, PromotionState
from consolidation.services.shortterm_to_longterm import (
    promotion_check,
    promotion_request,
    promotion_sweep,
    retention_sweep,
)
from graph.models import Entity, Relationship
from memoryhub.errors import ConflictError
from tests.factories import make_conflict
from tiers.models import (
    Bm25Posting,
    LongtermChunk,
    MemoryEvent,
    MemoryUsage,
    ShorttermMemory,
    Tier,
    UsageKind,
)
from tiers.search import search
from tiers.selectors.longterm import longterm_chunk_history, longterm_chunks
from tiers.services.shortterm import shortterm_chunks_update, shortterm_memory_create
from tiers.services.usage import usage_record, usage_record_accesses

pytestmark = pytest.mark.django_db


def _memory(worker, text="Maria works at Acme in Lisbon. Maria prefers Python.", **kw):
    return shortterm_memory_create(worker=worker, title="Maria", content=text, **kw)


def _age(memory, hours):
    ShorttermMemory.objects.filter(pk=memory.pk).update(
        created_at=timezone.now() - timedelta(hours=hours),
        last_updated=timezone.now() - timedelta(hours=hours),
    )
    memory.refresh_from_db()
    return memory


def test_usage_events_are_rows_and_a_summary(worker):
    memory = _memory(worker)
    chunk = memory.chunks.get()
    usage_record(worker=worker, memory_id=memory.pk, kind="access", session_id="s1")
    usage_record(worker=worker, memory_id=memory.pk, kind="access", session_id="s2")
    usage_record(worker=worker, memory_id=memory.pk, kind="confirm", chunk_id=chunk.pk)
    usage_record(worker=worker, memory_id=memory.pk, kind="contradict", detail="said Java")
    usage_record(worker=worker, memory_id=memory.pk, kind="mark_important", importance=8)
    usage = MemoryUsage.objects.get(memory=memory)
    assert (usage.access_count, usage.session_count, usage.sessions) == (2, 2, ["s1", "s2"])
    assert usage.confirmations == 1 and usage.contradictions == 1
    assert usage.last_contradiction_at is not None and usage.importance == 8.0
    assert len(usage.access_times) == 2
    assert MemoryEvent.objects.filter(memory=memory).count() == 5


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"kind": "liked"}, "kind"),
        ({"kind": "reinforce"}, "kind"),  # consolidation's own signal
        ({"kind": "access", "importance": 3}, "importance"),
        ({"kind": "mark_important", "importance": 11}, "importance"),
        ({"kind": "access", "session_id": 5}, "session_id"),
        ({"kind": "access", "chunk_id": 999999}, "chunk_id"),
    ],
)
def test_bad_usage_input_names_the_field_and_writes_nothing(worker, kwargs, field):
    from memoryhub.errors import DomainError

    memory = _memory(worker)
    with pytest.raises(DomainError) as error:
        usage_record(worker=worker, memory_id=memory.pk, **kwargs)
    assert field in error.value.fields
    assert not MemoryEvent.objects.exists() and not MemoryUsage.objects.exists()


def test_another_workers_memory_is_not_found(worker, other_worker):
    from memoryhub.errors import NotFoundError

    memory = _memory(other_worker)
    with pytest.raises(NotFoundError):
        usage_record(worker=worker, memory_id=memory.pk, kind="access")


def test_search_hits_record_one_access_per_memory(worker):
    memory = _memory(worker)
    chunk = memory.chunks.get()
    assert (
        usage_record_accesses(
            worker_id=worker.pk, hits=[(memory.pk, chunk.pk), (memory.pk, None)], session_id="s9"
        )
        == 1
    )
    usage = MemoryUsage.objects.get(memory=memory)
    assert usage.access_count == 1 and usage.sessions == ["s9"]
    usage_record_accesses(worker_id=worker.pk, hits=[(memory.pk, chunk.pk)], session_id="s9")
    usage_record_accesses(worker_id=worker.pk, hits=[(memory.pk, chunk.pk)], session_id="t2")
    usage_record_accesses(worker_id=worker.pk, hits=[(memory.pk, chunk.pk)])
    usage.refresh_from_db()
    assert (usage.access_count, usage.sessions, usage.session_count) == (4, ["s9", "t2"], 2)
    assert len(usage.access_times) == 4 and usage.access_times == sorted(usage.access_times)
    assert usage.first_accessed_at <= usage.last_accessed_at
    assert MemoryEvent.objects.filter(memory=memory, kind="access").count() == 4
    # another worker's memory is skipped, a deleted one too
    assert usage_record_accesses(worker_id=worker.pk + 999, hits=[(memory.pk, None)]) == 0


def test_promotion_writes_versions_and_the_longterm_graph(worker):
    memory = _memory(worker)
    usage_record(worker=worker, memory_id=memory.pk, kind="correct")
    outcome = promotion_check(memory=memory)
    assert outcome.promoted and outcome.decided_by == "trigger_correction"
    version = LongtermChunk.objects.get()
    chunk = memory.chunks.get()
    assert version.content == chunk.content and version.end_date is None
    assert version.shortterm_memory_id == memory.pk and version.title == "Maria"
    assert 0 < version.confidence <= 1 and version.memory_type == "semantic"
    assert list(version.embedding) == list(chunk.embedding)  # no re-embedding
    assert Bm25Posting.objects.filter(tier=Tier.LONGTERM, chunk_id=version.pk).exists()
    longterm = Entity.objects.filter(worker=worker, tier=Tier.LONGTERM)
    assert {e.name for e in longterm} >= {"Maria", "Acme"}
    assert all(e.importance is not None and e.source_memory_id is None for e in longterm)
    assert Relationship.objects.filter(worker=worker, tier=Tier.LONGTERM).exists()
    state = PromotionState.objects.get(memory=memory)
    assert state.promotions == 1 and state.breakdown["composite_score"] == state.score
    assert state.history[-1]["promoted"] is True


def test_promoting_an_unchanged_memory_writes_no_new_version(worker):
    memory = _memory(worker)
    usage_record(worker=worker, memory_id=memory.pk, kind="mark_important")
    promotion_check(memory=memory)
    entity = Entity.objects.get(worker=worker, tier=Tier.LONGTERM, name="Maria")
    again = promotion_check(memory=memory)
    assert again.promoted and again.unchanged
    assert LongtermChunk.objects.count() == 1
    assert Entity.objects.get(pk=entity.pk).confidence == entity.confidence
    assert PromotionState.objects.get(memory=memory).promotions == 1
    assert len(PromotionState.objects.get(memory=memory).history) == 2


def test_a_changed_memory_closes_the_version_and_starts_the_next(worker):
    memory = _memory(worker)
    usage_record(worker=worker, memory_id=memory.pk, kind="mark_important")
    first_at = timezone.now()
    promotion_check(memory=memory, now=first_at)
    old = LongtermChunk.objects.get()
    chunk = memory.chunks.get()
    shortterm_chunks_update(
        memory=memory,
        updates=[{"chunk_id": chunk.pk, "new_content": "Maria works at Initech in Porto."}],
    )
    entity = Entity.objects.get(worker=worker, tier=Tier.LONGTERM, name="Maria")
    second_at = first_at + timedelta(hours=1)
    outcome = promotion_check(memory=memory, now=second_at)
    assert outcome.versions_closed == [old.pk] and len(outcome.versions_created) == 1
    old.refresh_from_db()
    assert old.end_date == second_at
    # the ended version's postings moved to their own key: current searches skip them
    assert set(
        Bm25Posting.objects.filter(chunk_id=old.pk, tier__startswith="longterm").values_list(
            "tier", flat=True
        )
    ) == {"longterm_ended"}
    current = LongtermChunk.objects.get(end_date__isnull=True)
    assert current.start_date == second_at and "Initech" in current.content
    # the entity seen again: 0.7 old + 0.3 new
    merged = Entity.objects.get(pk=entity.pk)
    shortterm_maria = Entity.objects.get(tier=Tier.SHORTTERM, source_memory=memory, name="Maria")
    assert merged.confidence == pytest.approx(
        0.7 * entity.confidence + 0.3 * shortterm_maria.confidence
    )
    assert merged.last_seen == second_at
    history = longterm_chunk_history(worker=worker, shortterm_memory_id=memory.pk)
    assert [v.pk for v in history] == [current.pk, old.pk]
    # as of the first promotion, the first version; now, the second
    as_of = list(longterm_chunks(worker=worker, valid_at=first_at + timedelta(minutes=30)))
    assert [v.pk for v in as_of] == [old.pk]
    assert [v.pk for v in longterm_chunks(worker=worker)] == [current.pk]


def test_longterm_search_is_temporal(worker):
    memory = _memory(worker, "The billing service runs on Postgres 15.")
    usage_record(worker=worker, memory_id=memory.pk, kind="mark_important")
    first_at = timezone.now() - timedelta(days=2)
    promotion_check(memory=memory, now=first_at)
    chunk = memory.chunks.get()
    shortterm_chunks_update(
        memory=memory,
        updates=[{"chunk_id": chunk.pk, "new_content": "The billing service runs on MySQL 8."}],
    )
    promotion_check(memory=memory, now=first_at + timedelta(days=1))
    now_hits = search(worker=worker, query="billing service database", corpus="longterm")
    assert [h.content for h in now_hits] == ["The billing service runs on MySQL 8."]
    assert now_hits[0].end_date is None and now_hits[0].confidence is not None
    then = search(
        worker=worker,
        query="billing service database",
        corpus="longterm",
        valid_at=(first_at + timedelta(hours=1)).isoformat(),
    )
    assert [h.content for h in then] == ["The billing service runs on Postgres 15."]
    both = search(
        worker=worker,
        query="billing service database",
        corpus="longterm",
        time_range=[first_at.isoformat(), None],
        mode="bm25",
    )
    assert len(both) == 2
    assert search(worker=worker, query="billing", corpus="longterm", confidence_threshold=1.0) == []


def test_temporal_search_options_are_checked(worker):
    from memoryhub.errors import DomainError

    with pytest.raises(DomainError) as error:
        search(worker=worker, query="x", corpus="longterm", valid_at="yesterday-ish")
    assert "valid_at" in error.value.fields
    with pytest.raises(DomainError) as error:
        search(worker=worker, query="x", corpus="longterm", time_range=["2025-02-01", "2025-01-01"])
    assert "time_range" in error.value.fields
    with pytest.raises(DomainError) as error:
        search(worker=worker, query="x", corpus="shortterm", valid_at="2025-01-01")
    assert "valid_at" in error.value.fields


def test_the_sweep_promotes_the_eligible_and_records_a_run(worker, other_worker):
    ready = _age(_memory(worker), 30)
    for session in ("s1", "s2"):
        for _ in range(2):
            usage_record(worker=worker, memory_id=ready.pk, kind="access", session_id=session)
    usage_record(worker=worker, memory_id=ready.pk, kind="confirm")
    usage_record(worker=worker, memory_id=ready.pk, kind="user_mention")
    idle = _memory(worker, "A note about the weather.")
    usage_record(worker=worker, memory_id=idle.pk, kind="access")
    theirs = _memory(other_worker)
    usage_record(worker=other_worker, memory_id=theirs.pk, kind="correct")
    progress = []
    runs = promotion_sweep(worker_id=worker.pk, progress=lambda done, total: progress.append(done))
    run = ConsolidationRun.objects.get(pk__in=runs)
    assert run.kind == "promotion" and run.outcomes[0]["summary"]["checked"] == 2
    assert progress == [1, 2]
    assert PromotionState.objects.get(memory=idle).decided_by == "not_eligible"
    assert not LongtermChunk.objects.filter(worker=other_worker).exists()
    state = PromotionState.objects.get(memory=ready)
    # The sweep is safe to run twice: nothing new is written.
    before = LongtermChunk.objects.count()
    promotion_sweep(worker_id=worker.pk)
    assert LongtermChunk.objects.count() == before
    assert len(PromotionState.objects.get(memory=ready).history) == len(state.history) + 1


def test_a_failing_memory_does_not_stop_the_sweep(worker, monkeypatch):
    from consolidation.services import shortterm_to_longterm

    first, second = _memory(worker, "First note."), _memory(worker, "Second note.")
    for memory in (first, second):
        usage_record(worker=worker, memory_id=memory.pk, kind="mark_important")
    real = shortterm_to_longterm.longterm_versions_write

    def flaky(**kw):
        if kw["shortterm_memory_id"] == first.pk:
            raise RuntimeError("disk full")
        return real(**kw)

    monkeypatch.setattr(shortterm_to_longterm, "longterm_versions_write", flaky)
    run = ConsolidationRun.objects.get(pk__in=promotion_sweep(worker_id=worker.pk))
    assert run.outcomes[0]["summary"] == {"checked": 1, "promoted": 1, "unchanged": 0, "failed": 1}
    assert list(LongtermChunk.objects.values_list("shortterm_memory_id", flat=True)) == [second.pk]
    # nothing of the failed memory was half-written: no state recorded either
    assert not PromotionState.objects.filter(memory=first).exists()


def test_a_pending_conflict_blocks_promotion_and_retention(worker):
    memory = _age(make_conflict(worker).shortterm_memory, 24 * 40)
    usage_record(worker=worker, memory_id=memory.pk, kind="correct")
    outcome = promotion_check(memory=memory)
    assert not outcome.promoted and "reviewer" in outcome.reason
    with pytest.raises(ConflictError):
        promotion_request(worker=worker, memory_id=memory.pk)
    retention_sweep(worker_id=worker.pk)
    assert ShorttermMemory.objects.filter(pk=memory.pk).exists()


def test_manual_request_promotes_whatever_the_score(worker):
    memory = _memory(worker, "The staging cluster is in eu-west-1.")
    outcome = promotion_request(worker=worker, memory_id=memory.pk)
    assert outcome.promoted and outcome.decided_by == "manual"
    assert LongtermChunk.objects.filter(shortterm_memory_id=memory.pk).exists()


def test_retention_removes_old_promoted_and_low_scored_memories_only(worker):
    promoted = _memory(worker, "Maria prefers Python.")
    usage_record(worker=worker, memory_id=promoted.pk, kind="mark_important")
    promotion_check(memory=promoted)
    promoted = _age(promoted, 24 * 31)
    unused = _age(_memory(worker, "Someone mentioned a sandwich."), 24 * 31)
    recent = _memory(worker, "A fresh note about lunch.")
    changed = _memory(worker, "Maria likes tea.")
    usage_record(worker=worker, memory_id=changed.pk, kind="mark_important")
    promotion_check(memory=changed)
    chunk = changed.chunks.get()
    shortterm_chunks_update(
        memory=changed, updates=[{"chunk_id": chunk.pk, "new_content": "Maria likes coffee."}]
    )
    changed = _age(changed, 24 * 31)
    runs = retention_sweep(worker_id=worker.pk)
    left = set(ShorttermMemory.objects.values_list("pk", flat=True))
    assert promoted.pk not in left and unused.pk not in left
    assert {recent.pk, changed.pk} <= left
    run = ConsolidationRun.objects.get(pk__in=runs)
    assert run.kind == "retention" and run.outcomes[0]["summary"]["removed"] == 2
    assert {o["detail"] for o in run.outcomes[1:]} == {
        "promoted to longterm",
        next(o["detail"] for o in run.outcomes[1:] if o["detail"].startswith("scored")),
    }
    # the longterm versions outlive their source
    assert LongtermChunk.objects.filter(shortterm_memory_id=promoted.pk).exists()
    assert not Entity.objects.filter(tier=Tier.SHORTTERM, source_memory_id=promoted.pk).exists()


def test_a_reviewer_correction_and_a_merge_are_usage_signals(worker):
    from consolidation.models import Decision
    from consolidation.services.decisions import decision_apply

    memory = _memory(worker)
    chunk = memory.chunks.get()
    decision_apply(
        decision=Decision.ACCEPT_INCOMING,
        worker=worker,
        conflict_id=1,
        chunk_id=chunk.pk,
        section_id="notes",
        section_name="Notes",
        section_content="Maria works at Initech.",
    )
    assert MemoryUsage.objects.get(memory=memory).corrections == 1
    assert MemoryEvent.objects.get(memory=memory).kind == UsageKind.CORRECT


def test_longterm_hits_carry_the_longterm_graph_of_their_source(worker):
    memory = _memory(worker, "Maria works at Acme in Lisbon.")
    promotion_check(memory=memory, manual=True)
    hits = search(worker=worker, query="Maria Acme", corpus="longterm", with_graph=True)
    graph = hits[0].graph
    assert {e["name"] for e in graph["entities"]} >= {"Maria", "Acme"}
    assert all(e["tier"] == "longterm" for e in graph["entities"])
    assert graph["relationships"]
