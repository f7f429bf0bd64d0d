"""manage.py seed_demo: demo workers, their graphs and conflicts of several kinds."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from consolidation.models import PromotionState
from graph.models import Entity
from memoryhub.models import Worker
from memoryhub.services.workers import worker_create
from review.models import ConflictResolution, MergeConflict
from tiers.models import ActiveMemory, LongtermChunk, ShorttermChunk, ShorttermMemory

pytestmark = pytest.mark.django_db


def _seed(*args) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def _counts() -> dict:
    return {
        "workers": Worker.objects.count(),
        "active": ActiveMemory.objects.count(),
        "shortterm": ShorttermMemory.objects.count(),
        "chunks": ShorttermChunk.objects.count(),
        "pending": MergeConflict.objects.filter(status="pending").count(),
        "decided": ConflictResolution.objects.count(),
        "longterm": LongtermChunk.objects.count(),
    }


def _pending_codes() -> set[str]:
    return {
        reason["code"]
        for reasons in MergeConflict.objects.filter(status="pending").values_list(
            "reasons", flat=True
        )
        for reason in reasons
    }


def test_it_seeds_workers_graphs_and_conflicts_of_every_kind():
    out = _seed()
    counts = _counts()
    assert counts["workers"] == 2 and counts["shortterm"] >= 5 and counts["active"] >= 3
    assert counts["pending"] >= 4 and counts["decided"] >= 1
    codes = _pending_codes()
    # Conflicts of several kinds, found by the rule checks or as the claim judge's evidence:
    # a changed number or date, a negation, a replaced single value.
    kinds = [
        {"number_changed", "claim_value_changed", "claim_text_value_changed"},
        {"date_changed", "claim_value_changed", "claim_text_value_changed"},
        {"negation_flip", "claim_negation_flip"},
        {"value_replaced", "claim_single_valued_swap", "claim_swap_person"},
    ]
    assert sum(bool(codes & kind) for kind in kinds) >= 3, codes
    for worker in Worker.objects.all():
        assert Entity.objects.filter(worker=worker).count() >= 5, worker.name
    assert "pending conflict(s); per reason:" in out and "http://127.0.0.1:8000/review/" in out


def test_a_memory_is_promoted_twice_for_the_longterm_pages():
    _seed()
    planner = Worker.objects.get(name="demo-atlas-planner")
    memory = ShorttermMemory.objects.get(worker=planner, title="Atlas — release runbook")
    versions = list(
        LongtermChunk.objects.filter(shortterm_memory_id=memory.pk).order_by("start_date")
    )
    assert len(versions) == 3  # chunk 0 twice, chunk 1 once
    ended = [v for v in versions if v.end_date is not None]
    assert len(ended) == 1 and "30 minutes" in ended[0].content
    current = LongtermChunk.objects.get(
        shortterm_memory_id=memory.pk, chunk_order=0, end_date__isnull=True
    )
    assert "60 minutes" in current.content and current.start_date == ended[0].end_date
    state = PromotionState.objects.get(memory=memory)
    assert state.promotions == 2 and len(state.history) == 2


def test_a_second_run_adds_nothing():
    _seed()
    before = _counts()
    out = _seed()
    assert _counts() == before
    assert out.count("is already there") == 2


def test_reset_removes_and_recreates_the_demo_only():
    keep = worker_create(name="my-own-agent")
    _seed()
    before = _counts()
    first_ids = set(Worker.objects.filter(metadata__seed="demo").values_list("pk", flat=True))
    out = _seed("--reset")
    assert "Removed demo worker demo-atlas-planner." in out
    assert _counts() == before
    assert not first_ids & set(Worker.objects.values_list("pk", flat=True))
    assert Worker.objects.filter(pk=keep.pk).exists()


def test_it_leaves_a_worker_that_is_not_demo_data_alone():
    worker_create(name="demo-support-desk")
    with pytest.raises(CommandError, match="not demo data"):
        _seed("--reset")
    assert Worker.objects.count() == 1 and not ShorttermMemory.objects.exists()


def test_demo_decisions_are_made_by_a_reviewer_nobody_logs_in_as():
    _seed()
    resolution = ConflictResolution.objects.select_related("resolved_by").first()
    user = resolution.resolved_by
    assert user.username == "demo-reviewer" and not user.has_usable_password()
    assert user.has_perm("review.resolve_conflict")
