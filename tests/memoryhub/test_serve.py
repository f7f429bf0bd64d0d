"""`make run`'s command on a fresh data directory: a real embedded server, gunicorn and
the django-q2 cluster, reached over real HTTP."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str):
    request = urllib.request.Request(url)
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=5) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_serve_runs_the_site_and_the_cluster_on_a_fresh_embedded_database(tmp_path):
    port = _free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "MEMORYHUB_EMBEDDED_CLEANUP"}
    }
    env |= {
        "DJANGO_SETTINGS_MODULE": "memoryhub.settings",
        "MEMORYHUB_DATA_DIR": str(tmp_path / "var"),
        "MEMORYHUB_ADMIN_PASSWORD": "",
        "MEMORYHUB_WEB_WORKERS": "1",
        "MEMORYHUB_Q_WORKERS": "1",
    }
    log = (tmp_path / "serve.log").open("w+")
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--bind", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        health = None
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                status, _, body = _get(f"{base}/api/v1/health")
                health = json.loads(body)
                if health["queue"].get("cluster_running"):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError):
                pass  # not listening yet, or still starting (a busy machine answers late)
            assert process.poll() is None, (tmp_path / "serve.log").read_text()
            time.sleep(0.5)
        assert health is not None, (tmp_path / "serve.log").read_text()
        assert health["status"] == "ok" and health["database"]["embedded"] is True
        assert health["queue"]["cluster_running"] is True, health

        status, headers, _ = _get(f"{base}/")
        assert status == 302 and headers["Location"].startswith("/accounts/login/")
        assert _get(f"{base}/admin/login/")[0] == 200
        assert _get(f"{base}/api/docs/")[0] == 200
        status, _, schema = _get(f"{base}/api/schema/")
        assert status == 200 and "openapi" in schema
        status, _, body = _get(f"{base}/api/v1/")
        assert status == 200 and json.loads(body)["endpoints"]["workers"].endswith(
            "/api/v1/workers/"
        )
        status, _, body = _get(f"{base}/static/css/app.css")
        assert status == 200 and "--accent" in body

        log.seek(0)
        output = log.read()
        assert "Created admin user 'admin' with password: " in output

        # Ctrl-C in a terminal signals the whole foreground group: serve alone hears it and
        # stops its children in order, so the task cluster finishes its own shutdown (it
        # hung when its workers were signalled with it, and was killed).
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=30)
        log.seek(0)
        output = log.read()
        assert "has stopped." in output and "Shutting down: Master" in output, output[-2000:]
        assert process.returncode == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
        subprocess.run(
            [sys.executable, "-m", "memoryhub.embedded_db", "stop"],
            cwd=ROOT,
            env=env,
            check=False,
            timeout=60,
        )
