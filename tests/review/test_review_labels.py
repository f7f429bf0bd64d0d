"""manage.py export_review_labels: reviewers' decisions as labelled pairs that
calibrate_migration reads."""

import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from consolidation.management.commands.calibrate_migration import LABELS, load_pairs
from review.models import ConflictResolution
from review.services.conflicts import conflict_create, conflict_resolve, conflict_undo
from tests.review.test_decisions import EXISTING, INCOMING, decided

pytestmark = pytest.mark.django_db


def _export(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("export_review_labels", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def decisions(worker, other_worker, staff_user):
    made = {
        decision: decided(worker, decision, user=staff_user)
        for decision in (
            "accept_incoming",
            "merge_edited",
            "keep_existing",
            "separate_memory",
            "dismiss",
        )
    }
    made["other"] = decided(other_worker, "accept_incoming")
    undone = decided(worker, "keep_existing", existing="Alice owns billing.")
    conflict_undo(resolution=undone, user=staff_user)
    return made


def test_it_writes_one_labelled_pair_per_decided_conflict(decisions, tmp_path, worker):
    target = tmp_path / "labels.jsonl"
    out, err = _export("--output", str(target))
    assert out == ""
    pairs = [json.loads(line) for line in target.read_text().splitlines()]
    assert len(pairs) == 6  # the undone decision is left out
    by_kind = {p["kind"]: p for p in pairs if p["worker"] == worker.name}
    assert {k: p["label"] for k, p in by_kind.items()} == {
        "accept_incoming": "conflict",
        "merge_edited": "conflict",
        "keep_existing": "conflict",
        "separate_memory": "new",
        "dismiss": "merge",
    }
    accepted = by_kind["accept_incoming"]
    resolution = decisions["accept_incoming"]
    chunk_id = resolution.conflict.conflicting_chunks[0]["chunk_id"]
    assert accepted == {
        "id": f"review-{resolution.pk}-{chunk_id}",
        "kind": "accept_incoming",
        "label": "conflict",
        # the chunk as the conflict found it, though accepting rewrote it since
        "existing": EXISTING,
        "incoming": INCOMING,
        "conflict_id": resolution.conflict_id,
        "chunk_id": chunk_id,
        "worker": worker.name,
        "reasons": ["number_changed"],
        "resolved_at": resolution.resolved_at.isoformat(),
    }
    assert "6 labelled pair(s) from 6 decided conflict(s) (4 conflict, 1 new, 1 merge)" in err
    assert str(target) in err
    assert all(p["label"] in LABELS for p in load_pairs(target))


def test_it_writes_a_line_per_conflicting_chunk(worker, tmp_path):
    from tiers.services.shortterm import shortterm_memory_create

    memory = shortterm_memory_create(
        worker=worker, title="Budget", chunks=[{"content": "A is 1."}, {"content": "A was 1."}]
    )
    chunks = list(memory.chunks.order_by("chunk_order"))
    conflict = conflict_create(
        worker=worker,
        active_memory=None,
        section_id="notes",
        section_name="Notes",
        section_content="A is 2.",
        shortterm_memory=memory,
        conflicting_chunks=[
            {"chunk_id": c.pk, "content": c.content, "similarity": 0.9} for c in chunks
        ],
        reasons=[{"code": "number_changed"}],
    )
    conflict_resolve(conflict=conflict, decision="keep_existing")
    out, _ = _export()
    pairs = [json.loads(line) for line in out.splitlines()]
    assert [(p["existing"], p["incoming"], p["label"]) for p in pairs] == [
        ("A is 1.", "A is 2.", "conflict"),
        ("A was 1.", "A is 2.", "conflict"),
    ]


def test_worker_and_since_narrow_the_export(decisions, other_worker):
    out, _ = _export("--worker", other_worker.name)
    assert [json.loads(line)["worker"] for line in out.splitlines()] == [other_worker.name]

    old = decisions["dismiss"]
    ConflictResolution.objects.filter(pk=old.pk).update(
        resolved_at=timezone.now() - dt.timedelta(days=30)
    )
    since = (timezone.localdate() - dt.timedelta(days=2)).isoformat()
    out, err = _export("--since", since)
    kinds = [json.loads(line)["kind"] for line in out.splitlines()]
    assert len(kinds) == 5 and "dismiss" not in kinds
    out, _ = _export("--since", f"{since}T00:00:00")
    assert len(out.splitlines()) == 5


def test_bad_arguments_are_refused(db, tmp_path):
    with pytest.raises(CommandError, match="no worker named 'ghost'"):
        _export("--worker", "ghost")
    with pytest.raises(CommandError, match="--since 'last week'"):
        _export("--since", "last week")
    with pytest.raises(CommandError, match="no such directory"):
        _export("--output", str(tmp_path / "missing" / "labels.jsonl"))


def test_an_empty_export_says_why(db):
    out, err = _export()
    assert out == "" and "No decisions to export yet" in err


def test_calibration_reads_the_exported_pairs(decisions, tmp_path):
    labels = tmp_path / "labels.jsonl"
    _export("--output", str(labels))
    report = StringIO()
    call_command(
        "calibrate_migration",
        "--pairs",
        str(labels),
        "--json",
        str(tmp_path / "figures.json"),
        stdout=report,
        stderr=StringIO(),
    )
    text = report.getvalue()
    assert f"6 labelled pairs from {labels} (1 merge, 4 conflict, 1 new)" in text
    assert "per kind:" in text and "accept_incoming" in text
    figures = json.loads((tmp_path / "figures.json").read_text())
    assert figures["pairs"] == 6 and 0 <= figures["current"]["accuracy"] <= 1
