"""The migration's decision: the labelled pairs (calibration data), the LLM judge and
merge against a local fake LLM, and the capacity trigger."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command
from werkzeug import Response

from consolidation.decision import assess_candidate, decide
from consolidation.management.commands.calibrate_migration import LABELS, load_pairs, score
from consolidation.models import ConsolidationRun
from consolidation.services.active_to_shortterm import migrate_active_memory
from graph.extraction.heuristic import HeuristicExtractor
from review.models import MergeConflict
from tests.factories import TASK_TEMPLATE
from tests.helpers import chat_response
from tiers.models import ShorttermMemory
from tiers.services.active import (
    active_memory_create,
    active_memory_update,
    active_memory_update_sections,
)
from tiers.services.shortterm import shortterm_memory_create

DATA = Path(__file__).resolve().parents[1] / "data"
KINDS = {
    "merge": {"restatement", "addition"},
    "conflict": {"number", "date", "version", "negation", "single_valued", "preference"},
    "new": {"other_subject", "unrelated"},
}


@pytest.mark.parametrize("name", ["migration_pairs.jsonl", "migration_pairs_holdout.jsonl"])
def test_the_labelled_pairs_cover_every_kind(name):
    pairs = load_pairs(DATA / name)
    assert len({p["id"] for p in pairs}) == len(pairs)
    for label, kinds in KINDS.items():
        assert {p["kind"] for p in pairs if p["label"] == label} == kinds
    if name == "migration_pairs.jsonl":
        assert len(pairs) >= 100


def _decide_all(pairs, similarity_of, config):
    extract = HeuristicExtractor().extract
    decided = []
    for pair in pairs:
        candidate = {"content": pair["existing"], "similarity": similarity_of(pair)}
        assessed = assess_candidate(
            content=pair["incoming"],
            incoming_graph=extract(pair["incoming"]),
            candidate=candidate,
            existing_graph=extract(pair["existing"]),
            config=config,
        )
        decided.append(
            {"merged": "merge", "conflict": "conflict", "created": "new"}[
                decide([assessed], config)["outcome"]
            ]
        )
    return decided


def test_the_rule_checks_hold_their_calibrated_figures(settings):
    """The rule checks alone (``judge: rules``), with every labelled pair a candidate (the
    similarity gate is the embedder's part, measured by `calibrate_migration`), on the pairs
    written beside them. Floors a little under the measured figures."""
    config = dict(settings.MEMORYHUB_MIGRATION) | {"judge": "rules"}
    pairs = [p for p in load_pairs(DATA / "migration_pairs.jsonl") if p["label"] != "new"]
    figures = score(pairs, _decide_all(pairs, lambda p: 0.8, config))
    assert figures["precision"] >= 0.97 and figures["recall"] >= 0.9, figures
    holdout = [p for p in load_pairs(DATA / "migration_pairs_holdout.jsonl") if p["label"] != "new"]
    figures = score(holdout, _decide_all(holdout, lambda p: 0.8, config))
    assert figures["precision"] >= 0.9 and figures["recall"] >= 0.75, figures


def test_score_counts_conflict_precision_recall_and_accuracy():
    pairs = [{"label": label} for label in ("conflict", "conflict", "merge", "new")]
    figures = score(pairs, ["conflict", "merge", "conflict", "new"])
    assert figures == {"precision": 0.5, "recall": 0.5, "f1": 0.5, "accuracy": 0.5}
    assert LABELS == ("merge", "conflict", "new")


def test_decide_prefers_conflict_then_merge_then_new():
    config = {"candidate_similarity": 0.6, "other_subject_outcome": "created"}
    same = {"similarity": 0.7, "reasons": []}
    other = {"similarity": 0.9, "reasons": [{"code": "low_entity_overlap"}]}
    changed = {"similarity": 0.65, "reasons": [{"code": "number_changed"}]}
    assert decide([other, same, changed], config)["outcome"] == "conflict"
    assert decide([other, same], config) == {"outcome": "merged", "target": same}
    assert decide([other], config)["outcome"] == "created"
    assert decide([other], config | {"other_subject_outcome": "conflict"})["outcome"] == "conflict"
    assert decide([{"similarity": 0.5, "reasons": [{"code": "number_changed"}]}], config) == {
        "outcome": "created"
    }


def test_calibrate_migration_prints_the_figures(tmp_path, db):
    out = StringIO()
    call_command(
        "calibrate_migration",
        "--pairs",
        str(DATA / "migration_pairs_holdout.jsonl"),
        "--json",
        str(tmp_path / "figures.json"),
        "--errors",
        stdout=out,
        stderr=StringIO(),
    )
    text = out.getvalue()
    assert (
        "42 labelled pairs" in text
        and "conflict: precision" in text
        and "Best settings of the grid" in text
    )
    figures = json.loads((tmp_path / "figures.json").read_text())
    assert figures["pairs"] == 42 and 0 <= figures["current"]["accuracy"] <= 1
    assert sum(sum(row.values()) for row in figures["best"]["confusion"].values()) == 42


# --- the LLM judge and merge, against a local fake OpenAI-compatible server ---


def _active(worker, notes):
    memory = active_memory_create(
        worker=worker,
        title="Sprint 12",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "Ship sprint 12"},
    )
    return active_memory_update_sections(memory=memory, sections={"notes": notes})


def _notes(run):
    return next(o for o in run.outcomes if o["section_id"] == "notes")


@pytest.fixture
def low_threshold(settings):
    settings.MEMORYHUB_MIGRATION = {**settings.MEMORYHUB_MIGRATION, "candidate_similarity": 0.45}


def _route(llm, judge=None, merged=None, status=200):
    def handler(request):
        body = json.loads(request.data)
        name = body["response_format"]["json_schema"]["name"]
        if status != 200:
            return Response("down", status=status)
        if name == "memory_conflict_judgement":
            return chat_response(judge)
        return chat_response({"merged": merged})

    llm.expect_request("/v1/chat/completions", method="POST").respond_with_handler(handler)


@pytest.mark.django_db
def test_the_llm_judge_adds_a_contradiction_the_rules_miss(worker, llm, low_threshold):
    memory = shortterm_memory_create(
        worker=worker, title="Diet", chunks=[{"content": "Jonas eats a vegan diet."}]
    )
    _route(
        llm,
        judge={
            "verdict": "CONFLICT",
            "reason": "Jonas now eats fish.",
            "claims": [
                {"existing": "Jonas eats a vegan diet.", "incoming": "He has fish on Fridays."}
            ],
        },
    )
    run = migrate_active_memory(
        memory=_active(worker, "Jonas eats a vegan diet. He has fish on Fridays."), trigger="api"
    )
    assert _notes(run)["outcome"] == "conflict"
    conflict = MergeConflict.objects.get()
    assert [r["code"] for r in conflict.reasons] == ["llm_contradiction"]
    assert conflict.conflicting_chunks[0]["llm"] == {
        "verdict": "contradiction",
        "llm_verdict": "CONFLICT",
        "explanation": "Jonas now eats fish.",
        "claims": [{"existing": "Jonas eats a vegan diet.", "incoming": "He has fish on Fridays."}],
    }
    assert memory.chunks.get().content == "Jonas eats a vegan diet."


@pytest.mark.django_db
def test_the_llm_merges_when_the_judge_agrees(worker, llm, low_threshold):
    memory = shortterm_memory_create(
        worker=worker, title="Diet", chunks=[{"content": "Jonas eats a vegan diet."}]
    )
    _route(
        llm,
        judge={"verdict": "UPDATE", "reason": "adds detail", "claims": []},
        merged="Jonas eats a vegan diet and takes B12.",
    )
    run = migrate_active_memory(
        memory=_active(worker, "Jonas eats a vegan diet. He takes B12."), trigger="api"
    )
    outcome = _notes(run)
    assert outcome["outcome"] == "merged" and outcome["ids"]["merged_by"] == "llm"
    assert memory.chunks.get().content == "Jonas eats a vegan diet and takes B12."


@pytest.mark.django_db
def test_an_llm_that_is_down_leaves_the_deterministic_decision(
    worker, llm, low_threshold, settings
):
    settings.MEMORYHUB_LLM = {**settings.MEMORYHUB_LLM, "timeout": 1}
    memory = shortterm_memory_create(
        worker=worker, title="Diet", chunks=[{"content": "Jonas eats a vegan diet."}]
    )
    _route(llm, status=503)
    run = migrate_active_memory(
        memory=_active(worker, "Jonas eats a vegan diet. He takes B12."), trigger="api"
    )
    outcome = _notes(run)
    assert outcome["outcome"] == "merged" and outcome["ids"]["merged_by"] == "sentences"
    assert memory.chunks.get().content == "Jonas eats a vegan diet. He takes B12."


@pytest.mark.django_db
def test_the_judge_can_say_other_subject(worker, llm, low_threshold):
    shortterm_memory_create(
        worker=worker, title="Diet", chunks=[{"content": "Jonas eats a vegan diet."}]
    )
    # The verdict names of the earlier schema are still read.
    _route(llm, judge={"verdict": "other_subject", "explanation": "another person"})
    run = migrate_active_memory(
        memory=_active(worker, "Jonas's sister eats a vegan diet."), trigger="api"
    )
    outcome = _notes(run)
    assert (
        outcome["outcome"] == "created"
        and outcome["ids"]["detail"] == "similar text about other entities"
    )
    assert ShorttermMemory.objects.count() == 2


# --- the capacity trigger ---


@pytest.fixture
def capacity(settings):
    cache.clear()
    settings.MEMORYHUB_MIGRATION = {
        **settings.MEMORYHUB_MIGRATION,
        "capacity_updates": 3,
        "capacity_memories": 0,
    }
    yield settings
    cache.clear()


@pytest.mark.django_db
def test_crossing_the_update_capacity_queues_one_sweep(
    worker, other_worker, capacity, django_capture_on_commit_callbacks
):
    memory = active_memory_create(
        worker=worker,
        title="Sprint 12",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "Ship sprint 12"},
    )
    with django_capture_on_commit_callbacks(execute=True):
        active_memory_update_sections(
            memory=memory, sections={"notes": "Kubernetes upgrades happen monthly."}
        )
        active_memory_update(
            memory=memory, sections={"notes": "Kubernetes upgrades happen on the first Monday."}
        )
    assert not ConsolidationRun.objects.exists()  # 2 updates: under the capacity
    with django_capture_on_commit_callbacks(execute=True):
        active_memory_update_sections(
            memory=memory, sections={"objective": "Ship sprint 12 on time"}
        )
    run = ConsolidationRun.objects.get()  # the test cluster runs the queued sweep inline
    assert run.trigger == "capacity" and run.worker_id == worker.pk
    outcomes = {o["section_id"]: o["outcome"] for o in run.outcomes}
    assert outcomes == {"objective": "created", "notes": "created", "progress": "skipped"}
    memory.refresh_from_db()
    assert all(s["update_count"] == 0 for s in memory.sections.values())
    # Within the cool-down a second crossing queues nothing; another worker is unaffected.
    with django_capture_on_commit_callbacks(execute=True):
        for text in ("a", "b", "c"):
            active_memory_update_sections(
                memory=memory, sections={"notes": f"Upgrade note {text}."}
            )
    assert ConsolidationRun.objects.count() == 1
    assert not ConsolidationRun.objects.filter(worker=other_worker).exists()


@pytest.mark.django_db
def test_crossing_the_memory_count_capacity_queues_a_sweep(
    worker, capacity, django_capture_on_commit_callbacks
):
    capacity.MEMORYHUB_MIGRATION = {
        **capacity.MEMORYHUB_MIGRATION,
        "capacity_updates": 0,
        "capacity_memories": 2,
    }
    with django_capture_on_commit_callbacks(execute=True):
        for title in ("one", "two"):
            memory = active_memory_create(
                worker=worker,
                title=title,
                template_yaml=TASK_TEMPLATE,
                initial_sections={"objective": f"Objective {title}"},
            )
            active_memory_update_sections(
                memory=memory, sections={"notes": f"The {title} project uses Kafka."}
            )
    assert (
        ConsolidationRun.objects.filter(trigger="capacity").count() == 2
    )  # one run per active memory


@pytest.mark.django_db
def test_bench_migration_reports_throughput(tmp_path):
    out = StringIO()
    call_command(
        "bench_migration",
        "--active",
        "3",
        "--sections",
        "2",
        "--background",
        "20",
        "--json",
        str(tmp_path / "m.json"),
        stdout=out,
        stderr=StringIO(),
    )
    assert "Migrated 6 sections" in out.getvalue() and "sections/s" in out.getvalue()
    report = json.loads((tmp_path / "m.json").read_text())
    assert (
        report["sections"] == 6
        and report["per_section"]["n"] == 6
        and sum(report["counts"].values()) == 6
    )
    assert not ConsolidationRun.objects.filter(trigger="capacity").exists()
    from memoryhub.models import Worker

    assert not Worker.objects.filter(name="bench-migration").exists()  # cleaned up


@pytest.mark.django_db
def test_bench_migration_reads_sections_on_write_and_decides_on_the_readings(tmp_path):
    out = StringIO()
    call_command(
        "bench_migration", "--active", "2", "--sections", "2", "--background", "10",
        "--read-on-write", "--json", str(tmp_path / "m.json"), stdout=out, stderr=StringIO(),
    )  # fmt: skip
    report = json.loads((tmp_path / "m.json").read_text())
    assert report["read_on_write_ms_per_section"] > 0
    assert report["decided_on_readings"] == 4
    assert "Read 4 sections on write" in out.getvalue()
