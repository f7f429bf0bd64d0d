"""An agent's POST times out on its side while the server goes on and stores the
memory; the agent retries with the same ``Idempotency-Key`` and gets the first answer
back, and one memory exists. Also when the retry arrives while the first request is
still running (the two race on the key's unique index; the loser rolls back)."""

import json
import time
import urllib.request

import httpx
import pytest

from tests.faults.conftest import free_port, wait_for
from tests.faults.reconcile import reconcile

pytestmark = pytest.mark.slow

WORKER = """
from memoryhub.services.workers import token_issue, worker_create
worker = worker_create(name="idempotent-retry")
print(json.dumps({"worker": worker.pk, "key": token_issue(worker=worker)[1]}))
"""
SENTENCES = [
    "Alice Chen moved the billing service to the new Postgres cluster in Frankfurt.",
    "Ben Carter reviewed the rollback plan with the payments team on Tuesday.",
    "The ledger-api now runs on Kubernetes and pages Lina Haddad when it fails.",
]


def _long_note() -> str:
    # Long enough that storing it (chunking, extraction, BM25) outlasts the client's wait.
    return " ".join(SENTENCES[i % 3].replace("Tuesday", f"day {i}") for i in range(400))


def test_a_retry_after_a_client_timeout_returns_the_first_answer(site, tmp_path):
    made = site.python(WORKER)
    port = free_port()
    site.spawn(
        "-m", "gunicorn", "memoryhub.wsgi:application", "--bind", f"127.0.0.1:{port}",
        "--workers", "2", "--timeout", "120", log=tmp_path / "gunicorn.log",
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    wait_for(
        lambda: _ok(f"{base}/api/v1/health"), timeout=90, interval=0.5, what="gunicorn to serve"
    )
    url = f"{base}/api/v1/workers/{made['worker']}/shortterm/"
    count = "SELECT count(*) FROM tiers_shorttermmemory WHERE worker_id = %s"

    for n, key in enumerate(["after-completion", "while-running"], start=1):
        body = {"title": f"Long note {n}", "content": _long_note()}
        headers = {"Authorization": f"Token {made['key']}", "Idempotency-Key": key}
        started = time.monotonic()
        with pytest.raises(httpx.TimeoutException):
            httpx.post(url, json=body, headers=headers, timeout=0.3)
        if key == "after-completion":
            wait_for(
                lambda n=n: site.scalar(count, [made["worker"]]) == n, timeout=60, what="store"
            )
        retry = httpx.post(url, json=body, headers=headers, timeout=60)
        assert retry.status_code == 201, retry.text
        again = httpx.post(url, json=body, headers=headers, timeout=60)
        assert again.json() == retry.json() and again.headers["Idempotent-Replayed"] == "true"
        if key == "after-completion":  # the first request's own answer, replayed
            assert retry.headers["Idempotent-Replayed"] == "true"
        time.sleep(1)  # a request still running would be done by now
        with site.connect() as conn:
            ids = [r[0] for r in conn.execute(
                "SELECT id FROM tiers_shorttermmemory WHERE worker_id = %s AND title = %s",
                [made["worker"], body["title"]],
            )]  # fmt: skip
            assert ids == [retry.json()["id"]], ids
            reconcile(conn.cursor(), made["worker"], memories=n)
        print(f"{key}: answered in {time.monotonic() - started:.1f} s")


def _ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return json.loads(response.read())["status"] == "ok"
    except (OSError, ValueError, KeyError):
        return False
