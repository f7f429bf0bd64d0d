"""The audit log (``AuditEvent``): one call per change that a person (or a staff token)
made, in the caller's transaction."""

from memoryhub.models import AuditEvent


def actor_of(*, user=None, token=None) -> str:
    if token is not None and getattr(token, "pk", None):
        owner = (
            f"user:{token.user.get_username()}" if token.user_id else f"worker:{token.worker_id}"
        )
        return f"token:{token.prefix} ({owner})"
    if user is not None and getattr(user, "pk", None):
        return f"user:{user.get_username()}"
    return "command"


def audit_record(
    *, action: str, target: str, user=None, token=None, worker=None, detail=None, actor=None
) -> AuditEvent:
    return AuditEvent.objects.create(
        actor=(actor or actor_of(user=user, token=token))[:200],
        action=action[:64],
        target=target[:300],
        worker=worker if getattr(worker, "pk", None) else None,
        detail=detail or {},
    )


def audit_admin_change(*, entry) -> AuditEvent:
    """Mirror of a Django admin ``LogEntry`` (every add, change and delete in the admin)."""
    kinds = {1: "addition", 2: "change", 3: "deletion"}
    return audit_record(
        action=f"admin.{kinds.get(entry.action_flag, 'action')}",
        target=f"{entry.content_type.app_label}.{entry.content_type.model}:{entry.object_id}",
        user=entry.user,
        detail={"object": entry.object_repr, "message": entry.get_change_message()},
    )
