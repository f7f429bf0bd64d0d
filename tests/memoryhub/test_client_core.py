"""The client's parts that need no server: it imports without Django, and its retry
policy (which answers are retried, the backoff, Retry-After)."""

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx

from memoryhub.client import RetryPolicy


def test_it_imports_without_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = (
        "import sys, memoryhub.client; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'rest_framework'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr


def test_it_backs_off_exponentially_with_jitter_and_a_cap():
    policy = RetryPolicy(retries=5, backoff=1.0, max_backoff=4.0)
    timeout = httpx.ReadTimeout("slow")
    for attempt, ceiling in [(0, 1.0), (1, 2.0), (2, 4.0), (3, 4.0)]:
        pauses = {policy.pause(attempt, timeout) for _ in range(20)}
        assert all(ceiling / 2 <= pause <= ceiling for pause in pauses)
        assert len(pauses) > 1  # jittered
    assert policy.pause(5, timeout) is None  # out of retries


def test_it_retries_only_what_may_go_through_next_time():
    policy = RetryPolicy()
    answers = {status: httpx.Response(status) for status in (200, 400, 404, 409, 429, 500, 501)}
    retried = {status for status, answer in answers.items() if policy.pause(0, answer)}
    assert retried == {429, 500}
    assert policy.pause(0, httpx.ConnectError("refused")) is not None
    assert policy.pause(0, httpx.UnsupportedProtocol("ftp://")) is None


def test_it_reads_retry_after_as_seconds_or_a_date_within_its_limit():
    policy = RetryPolicy(max_retry_after=60.0)
    soon = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    pauses = [
        policy.pause(0, httpx.Response(503, headers={"Retry-After": value}))
        for value in ("2", soon, "3600")
    ]
    assert pauses[0] == 2.0 and 25 < pauses[1] <= 30 and pauses[2] == 60.0


def test_it_retries_a_call_it_must_not_repeat_only_when_the_server_cannot_have_acted():
    policy = RetryPolicy()
    assert policy.pause(0, httpx.ConnectError("refused"), once=True) is not None
    assert policy.pause(0, httpx.Response(429), once=True) is not None
    for acted in (httpx.ReadTimeout("slow"), httpx.RemoteProtocolError("dropped")):
        assert policy.pause(0, acted, once=True) is None
    assert policy.pause(0, httpx.Response(503), once=True) is None
