import secrets

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from memoryhub.errors import ConflictError, DomainError
from memoryhub.models import ApiToken, Worker
from memoryhub.signals import worker_deleting
from memoryhub.validation import validate_metadata


@transaction.atomic
def worker_create(*, name: str, description: str = "", metadata: dict | None = None) -> Worker:
    worker = Worker(
        name=name.strip(), description=description, metadata=validate_metadata(metadata)
    )
    if not worker.name:
        raise DomainError("name must not be blank", fields={"name": "must not be blank"})
    if Worker.objects.filter(name=worker.name).exists():
        raise ConflictError(
            f"a worker named {worker.name!r} already exists",
            fields={"name": "already exists"},
            code="duplicate",
        )
    worker.full_clean()
    try:
        with transaction.atomic():
            worker.save()
    except IntegrityError as exc:  # a concurrent create won the race
        raise ConflictError(
            f"a worker named {worker.name!r} already exists",
            fields={"name": "already exists"},
            code="duplicate",
        ) from exc
    return worker


@transaction.atomic
def worker_update(
    *,
    worker: Worker,
    name: str | None = None,
    description: str | None = None,
    metadata: dict | None = None,
) -> Worker:
    if name is not None:
        name = name.strip()
        if not name:
            raise DomainError("name must not be blank", fields={"name": "must not be blank"})
        if Worker.objects.filter(name=name).exclude(pk=worker.pk).exists():
            raise ConflictError(
                f"a worker named {name!r} already exists",
                fields={"name": "already exists"},
                code="duplicate",
            )
        worker.name = name
    if description is not None:
        worker.description = description
    if metadata is not None:
        worker.metadata = validate_metadata(metadata)
    worker.full_clean()
    worker.save()
    return worker


@transaction.atomic
def worker_delete(*, worker: Worker) -> dict[str, int]:
    """Delete a worker and everything it holds, in one transaction. The apps holding its
    rows hear of it first (``memoryhub.signals.worker_deleting``) and say what goes (a
    large tier's upkeep is queued for after the commit). Returns those counts, e.g.
    ``{"shortterm_chunks": 1200}``."""
    removed: dict[str, int] = {}
    for _, answer in worker_deleting.send(sender=Worker, worker=worker):
        for key, count in (answer or {}).items():
            removed[key] = removed.get(key, 0) + count
    worker.delete()
    return removed


def _new_key() -> str:
    return ApiToken.KEY_PREFIX + secrets.token_urlsafe(32)


@transaction.atomic
def token_issue(*, worker: Worker | None = None, user=None, name: str = "") -> tuple[ApiToken, str]:
    """Issue a token for one worker (agent) or for a staff user. Returns (token, key).

    The key is returned only here: the database keeps its digest.
    """
    if (worker is None) == (user is None):
        raise DomainError("a token belongs to exactly one worker or one staff user")
    if user is not None and not (user.is_staff and user.is_active):
        raise DomainError(
            f"user {user.get_username()!r} is not an active staff user",
            fields={"user": "must be active staff"},
        )
    key = _new_key()
    token = ApiToken(
        name=name, worker=worker, user=user, digest=ApiToken.digest_of(key), prefix=key[:10]
    )
    token.full_clean()
    token.save()
    return token, key


@transaction.atomic
def token_revoke(*, token: ApiToken) -> ApiToken:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def staff_user_get(*, username: str):
    User = get_user_model()
    try:
        return User.objects.get(**{User.USERNAME_FIELD: username})
    except User.DoesNotExist as exc:
        raise DomainError(f"no user named {username!r}", fields={"user": "does not exist"}) from exc
