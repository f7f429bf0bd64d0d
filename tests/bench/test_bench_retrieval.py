"""bench_retrieval end to end on a data directory of its own: a small corpus in both tiers,
then retrieve (every cue) and context timed through HTTP with the Python client."""

import json

import pytest

from memoryhub import embedded_db
from tests.helpers import manage, site_env


@pytest.mark.slow
def test_bench_retrieval_times_every_cue_and_the_context_block(tmp_path):
    data_dir = tmp_path / "var"
    env = site_env(data_dir)
    try:
        assert manage(env, "migrate", "--verbosity", "0").returncode == 0
        figures = tmp_path / "retrieval.json"
        done = manage(
            env,
            "bench_retrieval", "--chunks", "60", "--queries", "3", "--embedder", "hash",
            "--json", str(figures),
        )  # fmt: skip
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        report = json.loads(figures.read_text())
        assert report["shortterm_chunks"] == 60 and report["longterm_current"] == 60
        for cue in ("current", "recent", "general", "none"):
            figures_of_cue = report[f"retrieve auto, {cue}"]
            assert figures_of_cue["n"] == 3 and figures_of_cue["p95"] >= figures_of_cue["p50"] > 0
        # the cues pick the tiers seed 003 says: "current" → active first, "in general" →
        # longterm first
        assert all(t.startswith("active") for t in report["retrieve auto, current"]["tiers"])
        assert all(t.startswith("longterm") for t in report["retrieve auto, general"]["tiers"])
        assert report["context, token_budget=500"]["n"] == 3
        assert "POST .../retrieve, tiers=auto" in done.stdout
        # the worker is deleted afterwards (no --keep)
        check = manage(env, "shell", "-c", "from memoryhub.models import Worker;"
                       "print(Worker.objects.filter(name='bench-retrieval').count())")  # fmt: skip
        assert check.stdout.strip().endswith("0")
    finally:
        embedded_db.stop_server(data_dir)
