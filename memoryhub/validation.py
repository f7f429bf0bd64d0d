"""Checks shared by the services of every app."""

from memoryhub.errors import DomainError


def validate_metadata(metadata, field: str = "metadata") -> dict:
    """Caller metadata: a JSON object (None means empty), stored unchanged."""
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise DomainError(f"{field} must be a JSON object", fields={field: "must be a JSON object"})
    return metadata
