"""Counts for the home page: what is in the system, per tier and per worker."""

from django.db.models import Count, Max

from memoryhub.models import ApiToken, Worker
from graph.models import Entity, Relationship
from tiers.models import ActiveMemory, ShorttermChunk, ShorttermMemory, Tier


def system_overview() -> dict:
    workers = list(
        Worker.objects.annotate(
            active_count=Count("active_memories", distinct=True),
            last_activity=Max("active_memories__updated_at"),
        ).order_by("name")
    )
    shortterm_by_worker = dict(
        ShorttermMemory.objects.values("worker").annotate(n=Count("id")).values_list("worker", "n")
    )
    for worker in workers:
        worker.shortterm_count = shortterm_by_worker.get(worker.pk, 0)
    section_total = 0
    pending_updates = 0
    for sections in ActiveMemory.objects.values_list("sections", flat=True).iterator():
        section_total += len(sections)
        pending_updates += sum(int(s.get("update_count", 0)) for s in sections.values())
    return {
        "workers": workers,
        "tiers": [
            {
                "name": "Active",
                "description": "working memory: template sections updated by agents",
                "memories": sum(w.active_count for w in workers),
                "detail": f"{section_total} sections, {pending_updates} section updates counted",
            },
            {
                "name": "Shortterm",
                "description": "searchable chunks (embeddings + BM25) and their entity graph",
                "memories": sum(shortterm_by_worker.values()),
                "detail": (
                    f"{ShorttermChunk.objects.count()} chunks, "
                    f"{Entity.objects.filter(tier=Tier.SHORTTERM).count()} entities, "
                    f"{Relationship.objects.filter(tier=Tier.SHORTTERM).count()} relationships"
                ),
            },
        ],
        "token_count": ApiToken.objects.filter(revoked_at__isnull=True).count(),
    }
