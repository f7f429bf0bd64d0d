"""Idempotency-Key for creating POSTs: an agent that retries gets the first answer back."""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from memoryhub.errors import DomainError
from memoryhub.models import IdempotencyRecord

MAX_KEY_LENGTH = 255


class IdempotencyKeyReused(DomainError):
    status_code = 422
    code = "idempotency_key_reused"


def _digest(method: str, path: str, body: bytes) -> str:
    return hashlib.sha256(method.encode() + b" " + path.encode() + b"\n" + body).hexdigest()


def _live(*, token, key: str) -> IdempotencyRecord | None:
    ttl = timedelta(hours=settings.MEMORYHUB_API["idempotency_ttl_hours"])
    return IdempotencyRecord.objects.filter(
        token=token, key=key, created_at__gte=timezone.now() - ttl
    ).first()


def _check(record: IdempotencyRecord, digest: str, key: str) -> IdempotencyRecord:
    if record.request_digest != digest:
        raise IdempotencyKeyReused(
            f"Idempotency-Key {key!r} was already used for a different request",
            fields={"Idempotency-Key": "already used for a different request"},
        )
    return record


def idempotent_call(*, token, key: str, method: str, path: str, body: bytes, call):
    """Run ``call()`` -> (status, body) once per (token, key).

    Returns (status, body, replayed). The creation and the record commit together, so
    a crash leaves neither; a concurrent duplicate waits on the unique index and then
    replays the winner's answer.
    """
    if len(key) > MAX_KEY_LENGTH or not key.strip():
        raise DomainError(
            f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} characters",
            fields={"Idempotency-Key": f"must be 1 to {MAX_KEY_LENGTH} characters"},
        )
    digest = _digest(method, path, body)
    record = _live(token=token, key=key)
    if record is not None:
        record = _check(record, digest, key)
        return record.status_code, record.response_body, True
    try:
        with transaction.atomic():
            status_code, response_body = call()
            if 200 <= status_code < 300:
                # Only an expired record of the key goes: a live one committed meanwhile by
                # a concurrent duplicate must stay, so that this insert fails on the unique
                # index, this transaction (and what it created) rolls back, and the
                # duplicate's answer is replayed.
                ttl = timedelta(hours=settings.MEMORYHUB_API["idempotency_ttl_hours"])
                IdempotencyRecord.objects.filter(
                    token=token, key=key, created_at__lt=timezone.now() - ttl
                ).delete()
                IdempotencyRecord.objects.create(
                    token=token,
                    key=key,
                    method=method,
                    path=path,
                    request_digest=digest,
                    status_code=status_code,
                    response_body=response_body,
                )
    except IntegrityError:
        record = _live(token=token, key=key)
        if record is None:
            raise
        record = _check(record, digest, key)
        return record.status_code, record.response_body, True
    return status_code, response_body, False


def idempotency_records_purge() -> int:
    """Delete records older than the configured time to live. Returns how many."""
    ttl = timedelta(hours=settings.MEMORYHUB_API["idempotency_ttl_hours"])
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=timezone.now() - ttl).delete()
    return deleted
