"""What one logical call does, free of I/O, so the sync and the async client share it.

A :class:`Call` describes a request; :meth:`Exchange.steps` is a generator that yields the
``httpx.Request`` to send (the same one again on a retry: same body bytes, same
``Idempotency-Key``) or a pause in seconds, is sent back what came of it (a response or
the transport error), and returns the decoded answer or raises :class:`MemoryHubError`.
Each client only drives it with its own ``send`` and ``sleep``.
"""

import json
import random
import uuid
from collections.abc import Generator, Mapping, Set
from dataclasses import dataclass
from datetime import date, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Generic, TypeVar

import httpx

from memoryhub.client.errors import ConnectionFailed, MemoryHubError, error_from_response

T = TypeVar("T")

# No answer worth waiting for, but the request may go through next time. (Not
# UnsupportedProtocol, LocalProtocolError or ProxyError: those fail the same way again.)
RETRYABLE_ERRORS = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)
# The connection never opened: the server cannot have seen the request.
UNSENT_ERRORS = (httpx.ConnectError, httpx.ConnectTimeout)

Step = httpx.Request | float
Outcome = httpx.Response | httpx.TransportError | None


@dataclass(frozen=True)
class Call(Generic[T]):
    """One API call. ``path`` is below ``/api/v1/``, and below ``workers/<id>/`` when
    ``scoped``; ``write`` calls create or change something and carry an Idempotency-Key.
    ``once`` calls are neither replayed by the server nor safe to repeat (a memory agent's
    run): they are retried only when the server cannot have acted. ``timeout`` overrides
    the client's, in seconds."""

    method: str
    path: str
    body: Any = None
    params: Mapping[str, Any] | None = None
    write: bool = False
    scoped: bool = True
    once: bool = False
    timeout: float | None = None


def fields(**values: Any) -> dict[str, Any]:
    """The given values without the ``None`` ones (left to the API's defaults)."""
    return {name: value for name, value in values.items() if value is not None}


def _json_default(value: Any) -> Any:
    """Dates as ISO 8601; any mapping or set as the JSON object or array it stands for."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, Set):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _query_value(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date) else value


def retry_after(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds (a number or an HTTP date), when the answer has one."""
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max((moment - datetime.now(moment.tzinfo)).total_seconds(), 0.0)


@dataclass(frozen=True)
class RetryPolicy:
    """Up to ``retries`` retries after a connection error, a timeout, a 5xx (not 501) or
    a 429; exponential backoff from ``backoff`` seconds, capped at ``max_backoff``, with
    jitter (half the pause is random, so agents that failed together retry apart). A
    ``Retry-After`` header is honoured up to ``max_retry_after`` seconds. A ``once`` call
    is retried only after a 429 or a connection that never opened."""

    retries: int = 3
    backoff: float = 0.5
    max_backoff: float = 30.0
    max_retry_after: float = 60.0

    def retryable(self, outcome: Outcome, *, once: bool = False) -> bool:
        if isinstance(outcome, httpx.Response):
            status = outcome.status_code
            return status == 429 or (not once and status >= 500 and status != 501)
        return isinstance(outcome, UNSENT_ERRORS if once else RETRYABLE_ERRORS)

    def pause(self, attempt: int, outcome: Outcome, *, once: bool = False) -> float | None:
        """Seconds to wait before retry number ``attempt + 1``, or None: no retry."""
        if attempt >= self.retries or not self.retryable(outcome, once=once):
            return None
        if isinstance(outcome, httpx.Response):
            after = retry_after(outcome)
            if after is not None:
                return min(after, self.max_retry_after)
        ceiling = min(self.max_backoff, self.backoff * 2.0**attempt)
        return ceiling / 2 + random.uniform(0, ceiling / 2)


class Exchange:
    """The request building, retrying and answer reading both clients share."""

    def __init__(
        self,
        base_url: str,
        token: str,
        worker_id: int | None,
        retry: RetryPolicy,
    ):
        base = base_url.rstrip("/")
        self.api_url = base if base.endswith("/api/v1") else f"{base}/api/v1"
        self.headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        self.worker_id = worker_id
        self.retry = retry

    def request(self, http: httpx.Client | httpx.AsyncClient, call: Call[Any]) -> httpx.Request:
        """The request, built once: its body bytes and Idempotency-Key stay the same on
        every retry, so the API recognises a retry and answers it without doing it twice."""
        headers = {}
        content = None
        if call.body is not None:
            content = json.dumps(call.body, default=_json_default).encode()
            headers["Content-Type"] = "application/json"
        if call.write:
            headers["Idempotency-Key"] = str(uuid.uuid4())
        path = f"workers/{self.worker_id}/{call.path}" if call.scoped else call.path
        params = {name: _query_value(value) for name, value in (call.params or {}).items()}
        return http.build_request(
            call.method,
            path,
            content=content,
            headers=headers,
            params=fields(**params),
            timeout=httpx.USE_CLIENT_DEFAULT if call.timeout is None else call.timeout,
        )

    def steps(
        self, http: httpx.Client | httpx.AsyncClient, call: Call[T]
    ) -> Generator[Step, Outcome, T]:
        """The call's steps (module docstring); first the token's worker, if not known."""
        if call.scoped and self.worker_id is None:
            me: dict[str, Any] = yield from self.steps(http, Call("GET", "me", scoped=False))
            if me["worker"] is None:
                raise MemoryHubError(
                    "a staff token reaches every worker: give the client a worker_id",
                    code="worker_required",
                )
            self.worker_id = me["worker"]["id"]
        request = self.request(http, call)
        attempt = 0
        while True:
            outcome = yield request
            pause = self.retry.pause(attempt, outcome, once=call.once)
            if pause is None:
                return self.answer(call, outcome, retried=attempt > 0)
            attempt += 1
            yield pause

    @staticmethod
    def answer(call: Call[T], outcome: Outcome, *, retried: bool) -> T:
        if not isinstance(outcome, httpx.Response):
            raise ConnectionFailed(
                f"{type(outcome).__name__}: {outcome}", code="connection_failed"
            ) from outcome
        if outcome.status_code == 404 and retried and call.method == "DELETE":
            return None  # type: ignore[return-value]  # gone: an earlier attempt deleted it
        if outcome.status_code >= 400:
            raise error_from_response(outcome)
        if outcome.status_code == 204 or not outcome.content:
            return None  # type: ignore[return-value]
        answer: T = outcome.json()
        return answer
