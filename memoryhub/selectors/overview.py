"""Counts for the home page: what is in the system, per tier and per worker. The figures
come from the apps that hold them (their ``AppConfig.overview``)."""

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
