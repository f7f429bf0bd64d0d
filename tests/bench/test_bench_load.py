"""bench_load end to end on a data directory of its own: a few agents for a few seconds
against `manage.py serve` (gunicorn + the qcluster), then the figures and the count check."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memoryhub import embedded_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_bench_load_reports_every_endpoint_and_checks_the_counts(tmp_path):
    data_dir = tmp_path / "var"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "MEMORYHUB_EMBEDDED_CLEANUP", "DJANGO_SETTINGS_MODULE"}
    } | {
        "DJANGO_SETTINGS_MODULE": "memoryhub.settings",
        "MEMORYHUB_DATA_DIR": str(data_dir),
        "MEMORYHUB_EMBEDDINGS": "hash",
        "MEMORYHUB_Q_WORKERS": "1",
        "SECRET_KEY": "bench-load-test",
    }

    def manage(*args):
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
        )  # fmt: skip

    try:
        assert manage("migrate", "--verbosity", "0").returncode == 0
        figures = tmp_path / "load.json"
        done = manage(
            "bench_load", "--agents", "3", "--duration", "4", "--warmup", "1",
            "--seed-memories", "1", "--web-workers", "1", "--json", str(figures),
            "--server-log", str(tmp_path / "serve.log"),
        )  # fmt: skip
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        report = json.loads(figures.read_text())
        assert report["requests"] > 0 and report["errors"]["count"] == 0
        assert set(report["endpoints"]) == {"update_section", "search", "create_memory", "context"}
        assert report["count_check"]["ok"] is True
        assert "count check: OK" in done.stdout
    finally:
        embedded_db.stop_server(data_dir)
