"""POST JSON to an OpenAI-compatible endpoint, retrying what is worth retrying: HTTP 429,
5xx and unreachable hosts, with exponential back-off. Shared by the embedding and LLM
providers; each passes the exception type its callers expect."""

import json
import time
import urllib.error
import urllib.request


def endpoint_url(base: str, path: str) -> str:
    """``base`` may be the API root (``…/v1``) or the full endpoint (``…/v1/embeddings``)."""
    base = base.rstrip("/")
    return base if base.endswith(path) else f"{base}{path}"


def _no_time(deadline: float | None, delay: float) -> bool:
    """No retry fits before ``deadline`` after waiting ``delay`` seconds."""
    return deadline is not None and time.monotonic() + delay >= deadline


def post_json(
    endpoint: str,
    payload: dict,
    *,
    api_key: str,
    timeout: float,
    retries: int,
    error: type[Exception],
    label: str,
    deadline: float | None = None,
) -> dict:
    """The decoded JSON answer, or ``error`` naming the endpoint (``label``: "LLM", …).
    ``deadline`` (a ``time.monotonic()`` value) bounds all the attempts together: each waits
    at most until then, and no retry starts after it (the error is then raised from the
    last failure, a ``TimeoutError`` when the endpoint was too slow)."""
    body = json.dumps(payload).encode()
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    delay = 0.5
    for attempt in range(retries + 1):
        request = urllib.request.Request(endpoint, data=body, headers=headers, method="POST")
        wait = (
            timeout if deadline is None else max(0.001, min(timeout, deadline - time.monotonic()))
        )
        try:
            with urllib.request.urlopen(request, timeout=wait) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            retryable = exc.code == 429 or exc.code >= 500
            if not retryable or attempt == retries or _no_time(deadline, delay):
                raise error(f"{label} endpoint {endpoint} answered HTTP {exc.code}") from exc
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            if attempt == retries or _no_time(deadline, delay):
                raise error(f"{label} endpoint {endpoint} is unreachable: {exc}") from exc
        except json.JSONDecodeError as exc:
            raise error(f"{label} endpoint {endpoint} answered a body that is not JSON") from exc
        time.sleep(delay)
        delay *= 2
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises
