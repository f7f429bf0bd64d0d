"""The embedded PostgreSQL: starts, is reused, survives a crash, stops."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from memoryhub import embedded_db

ROOT = Path(__file__).resolve().parents[2]


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _connect(params: dict):
    return psycopg.connect(
        dbname=params["NAME"], user=params["USER"], host=params["HOST"], port=params["PORT"] or None
    )


def test_it_removes_a_postmaster_pid_of_a_dead_process(tmp_path):
    pid_file = tmp_path / "postmaster.pid"
    pid_file.write_text(f"{_dead_pid()}\n{tmp_path}\n")
    assert embedded_db.clear_stale_postmaster(tmp_path) is True
    assert not pid_file.exists()


def test_it_keeps_the_postmaster_pid_of_a_process_that_is_not_postgres_but_alive(tmp_path):
    # A live pid that is not postgres (recycled pid) is stale too.
    pid_file = tmp_path / "postmaster.pid"
    pid_file.write_text(f"{os.getpid()}\n")
    assert embedded_db.clear_stale_postmaster(tmp_path) is True


def test_it_ignores_a_missing_or_garbled_file(tmp_path):
    assert embedded_db.clear_stale_postmaster(tmp_path) is False
    (tmp_path / "postmaster.pid").write_text("garbage")
    assert embedded_db.clear_stale_postmaster(tmp_path) is False


@pytest.mark.slow
def test_it_starts_is_reused_and_recovers_after_a_crash(tmp_path):
    data_dir = tmp_path / "data"
    first = embedded_db.ensure_database(data_dir)
    pid_file = data_dir / "pgdata" / "postmaster.pid"
    pid = int(pid_file.read_text().split()[0])
    try:
        with _connect(first) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute("CREATE TABLE survivor (v vector(3))")
            conn.execute("INSERT INTO survivor VALUES ('[1,2,3]')")
            conn.commit()

        # A second start (another process) reuses the running server.
        code = (
            "from pathlib import Path; from memoryhub import embedded_db;"
            f"print(embedded_db.ensure_database(Path({str(data_dir)!r}))['HOST'])"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == first["HOST"]
        assert int(pid_file.read_text().split()[0]) == pid

        # A crash (kill -9 of the postmaster) leaves a stale postmaster.pid behind.
        os.kill(pid, signal.SIGKILL)
        deadline = time.time() + 10
        while embedded_db._is_live_postgres(pid) and time.time() < deadline:
            time.sleep(0.1)
        assert not embedded_db._is_live_postgres(pid)
        again = embedded_db.ensure_database(data_dir)
        assert int(pid_file.read_text().split()[0]) != pid
        with _connect(again) as conn:
            assert conn.execute("SELECT v::text FROM survivor").fetchone()[0] == "[1,2,3]"
    finally:
        embedded_db.stop_server(data_dir)
    assert not pid_file.exists() or embedded_db.clear_stale_postmaster(data_dir / "pgdata")


@pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")), reason="DATABASE_URL's server keeps its own settings"
)
@pytest.mark.django_db
def test_the_embedded_server_runs_with_our_settings():
    from django.db import connection

    expected = embedded_db.server_settings()
    assert (
        expected["shared_buffers"].endswith("MB")
        and 128 <= int(expected["shared_buffers"][:-2]) <= 1024
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT setting, unit FROM pg_settings WHERE name = 'shared_buffers'")
        blocks, unit = cursor.fetchone()
        assert unit == "8kB" and int(blocks) * 8 // 1024 == int(expected["shared_buffers"][:-2])
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"


def test_the_shared_buffers_setting_can_be_chosen(monkeypatch, tmp_path):
    monkeypatch.setenv("MEMORYHUB_EMBEDDED_SHARED_BUFFERS", "256MB")
    (tmp_path / "postgresql.conf").write_text("# initdb's file\n")
    embedded_db.write_server_settings(tmp_path)
    embedded_db.write_server_settings(tmp_path)  # at every start: the include is added once
    assert "shared_buffers = '256MB'" in (tmp_path / "memoryhub.conf").read_text()
    assert (tmp_path / "postgresql.conf").read_text().count(
        "include_if_exists = 'memoryhub.conf'"
    ) == 1
