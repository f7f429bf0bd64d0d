"""What the client raises: the API's error shape ``{"error", "detail", "fields"}`` as an
exception, one subclass per status an agent reacts to differently."""

from typing import Any

import httpx


class MemoryHubError(Exception):
    """An answer of 400 or above, or no answer at all (``status`` None).

    ``code`` is the API's error code (``validation_error``, ``not_found``, ...),
    ``fields`` names what was wrong with the request (``{"query": "must not be empty"}``).
    """

    def __init__(
        self,
        detail: str,
        *,
        status: int | None = None,
        code: str = "error",
        fields: dict[str, str] | None = None,
    ):
        super().__init__(f"{status or 'no answer'} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.fields: dict[str, str] = fields or {}


class ValidationError(MemoryHubError):
    """400 or 422: the request was refused; ``fields`` says which parts."""


class AuthenticationError(MemoryHubError):
    """401: no token, or a bad one."""


class PermissionDenied(MemoryHubError):
    """403: the token may not do this (a worker's token on a staff endpoint)."""


class NotFoundError(MemoryHubError):
    """404: no such thing within this token's reach."""


class ConflictError(MemoryHubError):
    """409: the current state refuses it (a conflict already resolved, a promotion while
    a conflict about the memory is pending)."""


class RateLimitedError(MemoryHubError):
    """429, after the retries."""


class ServerError(MemoryHubError):
    """5xx, after the retries."""


class ConnectionFailed(MemoryHubError):
    """No answer (connection refused or dropped, timeout), after the retries."""


_BY_STATUS: dict[int, type[MemoryHubError]] = {
    400: ValidationError,
    401: AuthenticationError,
    403: PermissionDenied,
    404: NotFoundError,
    409: ConflictError,
    422: ValidationError,
    429: RateLimitedError,
}


def error_from_response(response: httpx.Response) -> MemoryHubError:
    """The exception for an error answer; a body that is not the API's shape (a proxy's
    HTML page) keeps the status and the start of its text."""
    try:
        body: Any = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and "error" in body:
        code, detail, fields = body["error"], body.get("detail", ""), body.get("fields")
    else:
        code, detail, fields = f"http_{response.status_code}", response.text[:500], None
    cls = _BY_STATUS.get(response.status_code)
    if cls is None:
        cls = ServerError if response.status_code >= 500 else MemoryHubError
    return cls(str(detail), status=response.status_code, code=str(code), fields=fields or {})
