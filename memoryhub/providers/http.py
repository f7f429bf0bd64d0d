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


def post_json(
    endpoint: str,
    payload: dict,
    *,
    api_key: str,
    timeout: float,
    retries: int,
    error: type[Exception],
    label: str,
) -> dict:
    """The decoded JSON answer, or ``error`` naming the endpoint (``label``: "LLM", …)."""
    body = json.dumps(payload).encode()
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    delay = 0.5
    for attempt in range(retries + 1):
        request = urllib.request.Request(endpoint, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            if not (exc.code == 429 or exc.code >= 500) or attempt == retries:
                raise error(f"{label} endpoint {endpoint} answered HTTP {exc.code}") from exc
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            if attempt == retries:
                raise error(f"{label} endpoint {endpoint} is unreachable: {exc}") from exc
        except json.JSONDecodeError as exc:
            raise error(f"{label} endpoint {endpoint} answered a body that is not JSON") from exc
        time.sleep(delay)
        delay *= 2
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises
