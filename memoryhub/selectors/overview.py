"""Counts for the home page: what is in the system, per tier and per worker. The figures
come from the apps that hold them (their ``AppConfig.overview``)."""

from django.urls import reverse

from memoryhub.contributions import contributions
from memoryhub.models import ApiToken, Worker


def system_overview() -> dict:
    workers = list(Worker.objects.order_by("name"))
    tiers, details, columns = [], {}, []
    for overview in contributions("overview"):
        part = overview()
        tiers += part.get("tiers", [])
        for key, text in part.get("details", {}).items():
            details.setdefault(key, []).append(text)
        columns += [
            {"numeric": True, "default": 0} | column for column in part.get("worker_columns", [])
        ]
    for tier in tiers:
        tier["detail"] = (
            ", ".join([tier["detail"], *details.get(tier["key"], [])])
            if tier.get("detail")
            else ", ".join(details.get(tier["key"], []))
        )
    for worker in workers:
        worker.columns = [
            {
                "key": c["key"],
                "value": c["values"].get(worker.pk, c["default"]),
                "numeric": c["numeric"],
            }
            for c in columns
        ]
    return {
        "workers": workers,
        "worker_columns": columns,
        "tiers": tiers,
        "token_count": ApiToken.objects.filter(revoked_at__isnull=True).count(),
    }


def attention(*, user, health: dict) -> list[dict]:
    """What needs attention: the apps' items (``AppConfig.attention``) and failed jobs."""
    items = [item for app_items in contributions("attention") for item in app_items(user=user)]
    failed = health.get("queue", {}).get("failed_last_24h") or 0
    if failed:
        items.append(
            {
                "level": "bad",
                "title": f"{failed} background job{'s' if failed != 1 else ''} failed "
                "in the last 24 h",
                "detail": "retried by the next sweep; the admin lists each failure with its error",
                "url": reverse("admin:django_q_failure_changelist") if user.is_staff else None,
                "count": failed,
            }
        )
    return items
