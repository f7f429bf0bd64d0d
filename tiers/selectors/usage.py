"""Reads of the usage signals of shortterm memories."""

from tiers.models import MemoryEvent, MemoryUsage, ShorttermMemory


def memory_usage(*, memory: ShorttermMemory, limit: int = 50) -> dict:
    """The memory's usage summary (None before its first signal) and its latest events."""
    return {
        "usage": MemoryUsage.objects.filter(memory=memory).first(),
        "events": list(
            MemoryEvent.objects.filter(memory=memory).order_by("-created_at", "-id")[:limit]
        ),
    }
