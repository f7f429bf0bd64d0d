"""django-q2 tasks of the project app. Each is safe to run twice."""

from memoryhub.services.idempotency import idempotency_records_purge


def purge_idempotency_records() -> int:
    return idempotency_records_purge()
