"""The tiers' figures for the home page (``TiersConfig.overview``)."""

from django.db.models import Count, Max

from tiers.models import ActiveMemory, ShorttermChunk, ShorttermMemory


def tiers_overview() -> dict:
    active = {
        row["worker"]: row
        for row in ActiveMemory.objects.values("worker").annotate(
            n=Count("id"), last=Max("updated_at")
        )
    }
    shortterm = dict(
        ShorttermMemory.objects.values("worker").annotate(n=Count("id")).values_list("worker", "n")
    )
    section_total = pending_updates = 0
    for sections in ActiveMemory.objects.values_list("sections", flat=True).iterator():
        section_total += len(sections)
        pending_updates += sum(int(s.get("update_count", 0)) for s in sections.values())
    return {
        "tiers": [
            {
                "key": "active",
                "name": "Active",
                "description": "working memory: template sections updated by agents",
                "memories": sum(row["n"] for row in active.values()),
                "detail": f"{section_total} sections, {pending_updates} section updates counted",
            },
            {
                "key": "shortterm",
                "name": "Shortterm",
                "description": "searchable chunks (embeddings + BM25) and their entity graph",
                "memories": sum(shortterm.values()),
                "detail": f"{ShorttermChunk.objects.count()} chunks",
            },
        ],
        "worker_columns": [
            {
                "key": "active",
                "label": "Active memories",
                "values": {w: row["n"] for w, row in active.items()},
            },
            {"key": "shortterm", "label": "Shortterm memories", "values": shortterm},
            {
                "key": "last_activity",
                "label": "Last activity",
                "numeric": False,
                "default": "—",
                "values": {w: row["last"] for w, row in active.items()},
            },
        ],
    }
