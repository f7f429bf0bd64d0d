"""One JSON shape for every API error: ``{"error": code, "detail": text, "fields": {...}}``."""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import OperationalError
from django.http import Http404, JsonResponse
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from memoryhub.errors import DomainError

_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.ParseError: "parse_error",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.Throttled: "throttled",
}


def flatten_errors(detail, prefix: str = "") -> dict[str, str]:
    """``{"sections": {"notes": ["too long"]}}`` → ``{"sections.notes": "too long"}``."""
    if isinstance(detail, dict):
        flat: dict[str, str] = {}
        for key, value in detail.items():
            name = str(key) if key != "non_field_errors" else ""
            flat.update(
                flatten_errors(value, f"{prefix}.{name}" if prefix and name else prefix or name)
            )
        return flat
    if isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            return {prefix or "non_field_errors": " ".join(str(item) for item in detail)}
        flat = {}
        for index, item in enumerate(detail):
            if item:
                flat.update(flatten_errors(item, f"{prefix}[{index}]"))
        return flat
    return {prefix or "non_field_errors": str(detail)}


def _summary(fields: dict[str, str]) -> str:
    return "; ".join(f"{name}: {message}" for name, message in fields.items())


def error_body(code: str, detail: str, fields: dict | None = None) -> dict:
    return {"error": code, "detail": detail, "fields": fields or {}}


def _statement_timeout(exc) -> bool:
    """A statement cancelled by PostgreSQL's ``statement_timeout`` (SQLSTATE 57014)."""
    cause = exc.__cause__ if isinstance(exc, OperationalError) else None
    return getattr(cause, "sqlstate", None) == "57014"


def exception_handler(exc, context):
    if _statement_timeout(exc):
        # The request's transaction rolled back before we got here: nothing was written.
        response = Response(
            error_body(
                "statement_timeout",
                "the database cancelled a statement that ran past statement_timeout; "
                "nothing was written: retry later, or send less in one request",
            ),
            status=503,
        )
        response["Retry-After"] = "5"
        return response
    if isinstance(exc, DomainError):
        return Response(error_body(exc.code, exc.detail, exc.fields), status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        fields = flatten_errors(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
        return Response(error_body("validation_error", _summary(fields), fields), status=400)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "not found")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        fields = flatten_errors(exc.detail)
        response.data = error_body("validation_error", _summary(fields), fields)
        return response
    code = next((name for cls, name in _CODES.items() if isinstance(exc, cls)), "error")
    detail = exc.detail if isinstance(exc.detail, str) else _summary(flatten_errors(exc.detail))
    response.data = error_body(code, str(detail))
    return response


def json_error_response(
    code: str, detail: str, status_code: int, fields: dict | None = None
) -> JsonResponse:
    """For errors raised outside DRF views (middleware, 404/500 handlers under /api/)."""
    return JsonResponse(error_body(code, detail, fields), status=status_code)
