"""bench_claim_judge on a small pairs file: cross-validated figures, and one judgement timed as
served (the stored chunk's vector and graph read) and with both texts fresh, per length."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

PAIRS = Path(__file__).resolve().parents[1] / "data" / "consolidation" / "pairs_dev.jsonl"


def test_bench_claim_judge_cross_validates_and_times_one_judgement(tmp_path):
    rows = [json.loads(line) for line in PAIRS.read_text().splitlines() if line.strip()]
    chosen = []
    for label in ("merge", "conflict", "new"):
        chosen += [r for r in rows if r["label"] == label][:8]
    pairs = tmp_path / "pairs_small.jsonl"
    pairs.write_text("".join(json.dumps(r) + "\n" for r in chosen))
    figures = tmp_path / "figures.json"
    out = io.StringIO()
    call_command(
        "bench_claim_judge", "--pairs", str(pairs), "--folds", "3", "--latency", str(pairs),
        "--json", str(figures), stdout=out, stderr=io.StringIO(),
    )  # fmt: skip
    report = json.loads(figures.read_text())
    assert report["pairs"] == 24 and 0 <= report["cv"]["accuracy"] <= 1
    latency = report["latency"]
    assert latency["as_served"]["n"] == latency["both_fresh"]["n"] == 24
    assert latency["read_on_write"]["n"] == 24
    # a section read on write is not parsed, extracted or embedded when it is decided
    assert latency["read_on_write"]["p50"] < latency["as_served"]["p50"]
    assert latency["judgement_alone"]["n"] == 24
    assert latency["judgement_alone"]["p50"] <= latency["as_served"]["p50"]
    assert latency["as_served_0_300_chars"]["n"] >= 1
    assert "as served" in out.getvalue() and "both fresh" in out.getvalue()
    assert "read on write" in out.getvalue()


def test_bench_claim_judge_refuses_held_out_pairs(tmp_path):
    held = tmp_path / "pairs_holdout9.jsonl"
    held.write_text("")
    with pytest.raises(CommandError, match="held-out"):
        call_command("bench_claim_judge", "--pairs", str(held), stdout=io.StringIO())


def test_bench_claim_judge_holds_out_each_file_in_turn(tmp_path):
    rows = [json.loads(line) for line in PAIRS.read_text().splitlines() if line.strip()]
    paths = []
    for n in (1, 2):
        chosen = []
        for label in ("merge", "conflict", "new"):
            chosen += [r for r in rows if r["label"] == label][8 * (n - 1) : 8 * n]
        path = tmp_path / f"pairs_part{n}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in chosen))
        paths.append(str(path))
    figures = tmp_path / "figures.json"
    out = io.StringIO()
    call_command(
        "bench_claim_judge", "--pairs", *paths, "--by-file", "--json", str(figures),
        stdout=out, stderr=io.StringIO(),
    )  # fmt: skip
    report = json.loads(figures.read_text())
    assert set(report["by_file"]) == {"pairs_part1", "pairs_part2"}
    assert "each file held out" in out.getvalue() and "pairs_part2 held out (24)" in out.getvalue()
