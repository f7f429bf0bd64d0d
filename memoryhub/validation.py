"""Checks shared by the services of every app."""

from datetime import UTC, datetime

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from memoryhub.errors import DomainError


def validate_metadata(metadata, field: str = "metadata") -> dict:
    """Caller metadata: a JSON object (None means empty), stored unchanged."""
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise DomainError(f"{field} must be a JSON object", fields={field: "must be a JSON object"})
    return metadata


def moment(value, field: str) -> datetime:
    """A datetime from a datetime, ``"now"`` or an ISO 8601 text (a date alone: its start;
    no zone: the server's zone)."""
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, str) and value.strip().lower() == "now":
        parsed = timezone.now()
    elif isinstance(value, str):
        text = value.strip()
        try:
            parsed = parse_datetime(text)
            if parsed is None and parse_date(text) is not None:
                parsed = datetime.combine(parse_date(text), datetime.min.time())
        except ValueError:
            parsed = None
        if parsed is None:
            raise DomainError(
                f"{field} must be an ISO 8601 date or date-time",
                fields={field: "not an ISO 8601 date or date-time"},
            )
    else:
        raise DomainError(
            f"{field} must be an ISO 8601 date or date-time",
            fields={field: "must be an ISO 8601 text"},
        )
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed)
    try:  # PostgreSQL takes offsets up to ±15:59 only; ISO allows more
        return parsed.astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        raise DomainError(
            f"{field} is out of range", fields={field: "out of range once in UTC"}
        ) from exc


def moment_range(value, field: str) -> tuple[datetime, datetime]:
    """``[start, end]`` or ``{"start", "end"}``; either end may be null (open)."""
    if isinstance(value, dict):
        value = [value.get("start"), value.get("end")]
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise DomainError(
            f"{field} must be [start, end] or {{start, end}}",
            fields={field: "must be [start, end]"},
        )
    start = datetime(1, 1, 2, tzinfo=UTC) if value[0] in (None, "") else None
    end = datetime(9999, 12, 30, tzinfo=UTC) if value[1] in (None, "") else None
    start = start or moment(value[0], f"{field}.start")
    end = end or moment(value[1], f"{field}.end")
    if end < start:
        raise DomainError(f"{field} ends before it starts", fields={field: "end is before start"})
    return start, end
