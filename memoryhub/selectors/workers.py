from django.db.models import QuerySet

from memoryhub.errors import NotFoundError
from memoryhub.models import ApiToken, Worker


def token_authenticate(*, key: str) -> ApiToken | None:
    """The live token with this key, or None (unknown or revoked)."""
    return (
        ApiToken.objects.select_related("worker", "user")
        .filter(digest=ApiToken.digest_of(key), revoked_at__isnull=True)
        .first()
    )


def worker_list_for(*, token: ApiToken) -> QuerySet[Worker]:
    """Workers a token may see: all of them for staff, its own for an agent."""
    if token.is_staff_token:
        return Worker.objects.all()
    return Worker.objects.filter(pk=token.worker_id)


def worker_get_for(*, token: ApiToken, worker_id) -> Worker:
    """One worker the token may reach. Anything else is "not found", never "forbidden",
    so that ids of other workers do not leak."""
    try:
        return worker_list_for(token=token).get(pk=int(worker_id))
    except (Worker.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError(f"worker {worker_id} not found") from exc
