"""The memorizer's ``auto_resolve``: compare an active memory with a candidate shortterm
memory, add the active memory's new entities and relationships to the shortterm memory's
graph, and report what differs."""

from django.db import transaction

from graph.extraction import get_extractor
from graph.extraction.base import ExtractionError
from graph.services.extraction import graph_grow
from memoryhub.errors import DomainError
from tiers.models import ActiveMemory, ShorttermMemory
from tiers.search import nearest_chunks
from tiers.selectors.active import active_memory_sections_view


def _sections(memory: ActiveMemory, section: str | None) -> list[dict]:
    rows = active_memory_sections_view(memory)
    if section is not None:
        rows = [r for r in rows if section in (r["id"], r["name"])]
        if not rows:
            raise DomainError(
                f"no section {section!r} in this active memory",
                fields={"section": "unknown section"},
            )
    return [r for r in rows if r["content"].strip()]


def auto_resolve(
    *, active: ActiveMemory, shortterm: ShorttermMemory, section: str | None = None, limit: int = 5
) -> dict:
    if active.worker_id != shortterm.worker_id:
        raise DomainError(
            "the memories belong to different workers",
            fields={"shortterm_memory_id": "other worker"},
        )
    rows = _sections(active, section)
    if not rows:
        raise DomainError(
            "the active memory has no content to compare", fields={"section": "empty"}
        )
    content = "\n\n".join(f"{r['name']}: {r['content']}" for r in rows)
    try:
        # The sections' text only: their names ("Notes:", "Content:") are labels, not entities.
        extraction = get_extractor().extract("\n\n".join(r["content"] for r in rows))
    except ExtractionError as exc:
        raise DomainError(f"entity extraction failed: {exc}", code="extraction_failed") from exc
    similar = [
        {key: c[key] for key in ("chunk_id", "chunk_order", "content", "similarity")}
        for c in nearest_chunks(
            text=content, worker_id=shortterm.worker_id, memory_id=shortterm.pk, limit=limit
        )
    ]
    with transaction.atomic():
        ShorttermMemory.objects.select_for_update().get(pk=shortterm.pk)
        entity_differences, relationship_differences = graph_grow(
            memory=shortterm, extraction=extraction
        )
    return {
        "active_content": content,
        "similar_chunks": similar,
        "entity_differences": entity_differences,
        "relationship_differences": relationship_differences,
    }
