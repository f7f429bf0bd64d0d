"""Writes to the Longterm tier: temporal chunk versions (seed 000).

A version is never overwritten. Writing a source's chunks closes each current version
whose content changed (``end_date = now``) and starts the next (``start_date = now``);
an unchanged chunk keeps its current version; a current version whose source chunk is
gone is closed. BM25 postings of the new versions are written beside them. Runs in the
caller's transaction (consolidation promotes one memory per transaction).
"""

import hashlib
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from memoryhub.errors import DomainError
from memoryhub.models import Worker
from tiers.models import LongtermChunk, MemoryType, Tier
from tiers.search.corpus import LONGTERM_ENDED
from tiers.search.index import bm25_index_chunks, bm25_move_chunks


def content_hash(content: str) -> str:
    return hashlib.sha256(content.encode()).hexdigest()


@dataclass(frozen=True)
class SourceChunk:
    """One chunk of the source as it is promoted."""

    chunk_order: int
    content: str
    embedding: object  # the shortterm chunk's vector (the same model: no re-embedding)
    metadata: dict = field(default_factory=dict)


@dataclass
class VersionsWritten:
    created: list[int] = field(default_factory=list)  # ids of the new versions
    closed: list[int] = field(default_factory=list)  # ids of the versions ended
    unchanged: list[int] = field(default_factory=list)  # ids of the current versions kept

    @property
    def changed(self) -> bool:
        return bool(self.created or self.closed)


def longterm_versions_write(
    *,
    worker: Worker,
    shortterm_memory_id: int,
    title: str,
    chunks: list[SourceChunk],
    confidence: float,
    importance: float,
    memory_type: str = "",
    metadata: dict | None = None,
    now=None,
) -> VersionsWritten:
    """Make the current longterm versions of a source what ``chunks`` say."""
    if not 0.0 <= confidence <= 1.0:
        raise DomainError("confidence must be 0 to 1", fields={"confidence": "must be 0 to 1"})
    if memory_type and memory_type not in MemoryType.values:
        raise DomainError(
            f"memory_type must be one of {', '.join(MemoryType.values)}",
            fields={"memory_type": "unknown"},
        )
    now = now or timezone.now()
    written = VersionsWritten()
    with transaction.atomic():
        current = {
            version.chunk_order: version
            for version in LongtermChunk.objects.select_for_update()
            .filter(worker=worker, shortterm_memory_id=shortterm_memory_id, end_date__isnull=True)
            .order_by("chunk_order")
        }
        new_versions = []
        wanted = {chunk.chunk_order for chunk in chunks}
        for chunk in chunks:
            digest = content_hash(chunk.content)
            version = current.get(chunk.chunk_order)
            if version is not None and version.content_hash == digest:
                written.unchanged.append(version.pk)
                continue
            if version is not None:
                written.closed.append(version.pk)
            new_versions.append(
                LongtermChunk(
                    worker=worker,
                    shortterm_memory_id=shortterm_memory_id,
                    chunk_order=chunk.chunk_order,
                    title=title[:500],
                    content=chunk.content,
                    content_hash=digest,
                    embedding=chunk.embedding,
                    confidence=confidence,
                    importance=importance,
                    memory_type=memory_type,
                    start_date=now,
                    metadata={**(metadata or {}), **(chunk.metadata or {})},
                )
            )
        written.closed += [v.pk for order, v in current.items() if order not in wanted]
        if written.closed:
            # Closed first: one current version per source chunk is a constraint. Their
            # postings move to the ended versions' key: current searches read no past.
            LongtermChunk.objects.filter(pk__in=written.closed).update(end_date=now)
            bm25_move_chunks(
                from_tier=Tier.LONGTERM, to_tier=LONGTERM_ENDED, chunk_ids=written.closed
            )
        created = LongtermChunk.objects.bulk_create(new_versions)
        written.created = [version.pk for version in created]
        bm25_index_chunks(tier=Tier.LONGTERM, chunk_ids=written.created)
    return written
