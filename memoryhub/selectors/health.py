"""What /api/v1/health and the home page report about the running system."""

from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

from memoryhub.contributions import contributions


def database_status() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            version = cursor.fetchone()[0]
            cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            row = cursor.fetchone()
    except DatabaseError as exc:
        return {"database": {"ok": False, "error": str(exc).strip()}, "pgvector": {"ok": False}}
    return {
        "database": {
            "ok": True,
            "vendor": connection.vendor,
            "version": version,
            "embedded": settings.MEMORYHUB_EMBEDDED_DB,
        },
        "pgvector": {"ok": row is not None, "version": row[0] if row else None},
    }


def queue_status() -> dict:
    from django_q.models import Failure, OrmQ, Success
    from django_q.status import Stat

    try:
        clusters = [
            {
                "cluster_id": str(stat.cluster_id),
                "status": stat.status,
                "workers": len(stat.workers),
            }
            for stat in Stat.get_all()
        ]
        last_success = (
            Success.objects.order_by("-stopped").values_list("stopped", flat=True).first()
        )
        return {
            "ok": True,
            "broker": "orm",
            "clusters": clusters,
            "cluster_running": bool(clusters),
            "queued": OrmQ.objects.count(),
            "failed_last_24h": Failure.objects.filter(
                stopped__gte=timezone.now() - timedelta(hours=24)
            ).count(),
            "last_success": last_success.isoformat() if last_success else None,
        }
    except DatabaseError as exc:
        return {"ok": False, "error": str(exc).strip()}


def system_health() -> dict:
    report = database_status()
    report["queue"] = queue_status() if report["database"]["ok"] else {"ok": False}
    for app_report in contributions("health_report"):
        report.update(app_report())
    if not report["database"]["ok"]:
        report["status"] = "down"
    elif not (report["pgvector"]["ok"] and report["queue"]["ok"]):
        report["status"] = "degraded"
    else:
        report["status"] = "ok"
    return report
