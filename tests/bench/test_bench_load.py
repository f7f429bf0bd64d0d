"""bench_load end to end on a data directory of its own: a few agents for a few seconds
against `manage.py serve` (gunicorn + the qcluster), then the figures and the count check."""

import json

import pytest

from memoryhub import embedded_db
from tests.helpers import manage, site_env


@pytest.mark.slow
def test_bench_load_reports_every_endpoint_and_checks_the_counts(tmp_path):
    data_dir = tmp_path / "var"
    env = site_env(data_dir, MEMORYHUB_Q_WORKERS="1")
    try:
        assert manage(env, "migrate", "--verbosity", "0").returncode == 0
        figures = tmp_path / "load.json"
        done = manage(
            env,
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
