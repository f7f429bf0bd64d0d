"""Domain errors raised by services and selectors.

The API turns each into ``{"error": code, "detail": text, "fields": {...}}`` with its
status (memoryhub.api.errors); the UI shows ``detail`` and the field messages.
"""


class DomainError(Exception):
    status_code = 400
    code = "invalid"

    def __init__(
        self, detail: str, *, fields: dict[str, str] | None = None, code: str | None = None
    ):
        super().__init__(detail)
        self.detail = detail
        self.fields = fields or {}
        if code:
            self.code = code


class NotFoundError(DomainError):
    status_code = 404
    code = "not_found"


class PayloadTooLargeError(DomainError):
    status_code = 413
    code = "payload_too_large"


class ConflictError(DomainError):
    status_code = 409
    code = "conflict"
