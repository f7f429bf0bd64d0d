"""A site of its own for the fault tests that stop servers: a fresh embedded PostgreSQL
(``MEMORYHUB_DATA_DIR`` under pytest's tmp dir), migrated once per test run, reached by
``manage.py`` subprocesses, a qcluster or gunicorn, and read back over psycopg."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from memoryhub import embedded_db
from tests.helpers import site_env

ROOT = Path(__file__).resolve().parents[2]

SETUP = "import json, django; django.setup()\n"


class Site:
    def __init__(self, data_dir: Path, **env: str):
        self.data_dir = data_dir
        self.env = site_env(
            data_dir,
            SECRET_KEY="fault-tests-only",
            MEMORYHUB_API_WRITE_RATE="",
            # Sweeps run when a test says so, not when a count crosses the capacity.
            MEMORYHUB_MIGRATION_CAPACITY_UPDATES="0",
            MEMORYHUB_MIGRATION_CAPACITY_MEMORIES="0",
            MEMORYHUB_LOG_LEVEL="WARNING",
            **env,
        )
        self.children: list[subprocess.Popen] = []

    # --- the database ------------------------------------------------------------
    def start_db(self) -> dict:
        return embedded_db.ensure_database(self.data_dir)

    def stop_db(self) -> None:
        embedded_db.stop_server(self.data_dir)

    def connect(self) -> psycopg.Connection:
        params = self.start_db()
        return psycopg.connect(
            dbname=params["NAME"],
            user=params["USER"],
            host=params["HOST"],
            port=params["PORT"] or None,
            autocommit=True,
        )

    def scalar(self, sql: str, params=None):
        with self.connect() as conn:
            return conn.execute(sql, params).fetchone()[0]

    # --- processes ---------------------------------------------------------------
    def manage(self, *args: str, timeout: float = 120, check: bool = True):
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=check,
        )

    def python(self, code: str, timeout: float = 120):
        """Run ``code`` with Django set up; returns the JSON it printed last."""
        done = subprocess.run(
            [sys.executable, "-c", SETUP + code],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout.strip().splitlines()[-1])

    def spawn(self, *args: str, log: Path, **env: str) -> subprocess.Popen:
        process = subprocess.Popen(
            [sys.executable, *args],
            cwd=ROOT,
            env=self.env | env,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group: kill -9 reaches its children
        )
        self.children.append(process)
        return process

    def kill(self, process: subprocess.Popen, sig=signal.SIGKILL) -> None:
        if process.poll() is None:
            os.killpg(process.pid, sig)
            process.wait(timeout=30)

    def close(self) -> None:
        for child in self.children:
            try:
                self.kill(child)
            except ProcessLookupError:
                pass
        self.stop_db()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(condition, *, timeout: float, interval: float = 0.1, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    site = Site(tmp_path_factory.mktemp("fault-site"))
    try:
        site.manage("migrate", "--verbosity", "0")
        yield site
    finally:
        site.close()
