"""Writes to the Shortterm tier: memories, chunks, embeddings, BM25 postings and (through
``tiers.memory_graph``) the memory's graph.

Embeddings are computed before the transaction opens (they are the slow part and need no
lock); every database write of one call is then one transaction, so a failure at any step
(embedding provider, validation, database) leaves nothing half-written.
"""

import json
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from memoryhub.errors import DomainError, NotFoundError, PayloadTooLargeError
from memoryhub.models import Worker
from memoryhub.nlp import is_parsed, stored_form
from memoryhub.providers.embeddings import binary_cursor, get_embedder, vector_array
from memoryhub.text import chunk_text
from memoryhub.validation import validate_metadata
from tiers.memory_graph import memory_graph
from tiers.models import (
    Bm25Posting,
    Bm25Term,
    ShorttermChunk,
    ShorttermChunkParse,
    ShorttermMemory,
    Tier,
)
from tiers.search.index import bm25_index_chunks, bm25_unindex_chunks, embedding_text
from tiers.selectors.shortterm import shortterm_growth_text, shortterm_memory_text
from tiers.services.maintenance import vacuum_after_large_delete
from tiers.signals import announce_after_commit, shortterm_chunks_written

# Chunks before the appended ones that are read with them (a pronoun, a heading's subject).
APPEND_CONTEXT = 3


@dataclass(frozen=True)
class PreparedChunk:
    content: str
    metadata: dict


def _validate_text(field: str, value, *, allow_blank: bool = False) -> str:
    if not isinstance(value, str):
        raise DomainError(f"{field} must be a string", fields={field: "must be a string"})
    if not allow_blank and not value.strip():
        raise DomainError(f"{field} must not be empty", fields={field: "must not be empty"})
    limit = settings.MEMORYHUB_CHUNKING["max_content_bytes"]
    if len(value.encode()) > limit:
        raise PayloadTooLargeError(
            f"{field} is {len(value.encode())} bytes; the limit is {limit} bytes",
            fields={field: f"larger than {limit} bytes"},
        )
    return value


def prepare_chunks(inputs: list[dict], *, field: str = "chunks") -> list[PreparedChunk]:
    """Validate chunk inputs ``{content, metadata?, context?}`` and split long content.

    A ``context`` prefix (contextual retrieval) is put in front of every piece of its
    content, so each stored chunk keeps it. Caller metadata is stored unchanged.
    """
    if not isinstance(inputs, list):
        raise DomainError(f"{field} must be a list", fields={field: "must be a list"})
    config = settings.MEMORYHUB_CHUNKING
    prepared: list[PreparedChunk] = []
    for index, item in enumerate(inputs):
        where = f"{field}[{index}]"
        if not isinstance(item, dict):
            raise DomainError(
                f"{where} must be an object with content", fields={where: "must be an object"}
            )
        content = _validate_text(f"{where}.content", item.get("content"))
        metadata = validate_metadata(item.get("metadata"), f"{where}.metadata")
        context = item.get("context")
        if context is not None:
            context = _validate_text(f"{where}.context", context, allow_blank=True).strip()
        pieces = chunk_text(
            content,
            split_above=config["split_above_tokens"],
            chunk_tokens=config["chunk_tokens"],
            overlap_tokens=config["overlap_tokens"],
        )
        for piece in pieces:
            prepared.append(
                PreparedChunk(
                    content=f"{context}\n\n{piece}" if context else piece, metadata=metadata
                )
            )
    if len(prepared) > config["max_chunks_per_request"]:
        raise PayloadTooLargeError(
            f"{field} make {len(prepared)} chunks; "
            f"at most {config['max_chunks_per_request']} per request",
            fields={field: "too many chunks"},
        )
    return prepared


def _embed(texts: list[str], embedder=None):
    if not texts:
        return []
    return (embedder or get_embedder()).embed_documents(texts)


BULK_ANALYZE_CHUNKS = 1000
BULK_ANALYZE_GROWTH = 0.2  # of the chunks the planner knows of


def _refresh_statistics_after_bulk(count: int) -> None:
    """A large import that grows the chunks by a fifth or more makes the planner's
    statistics stale until autovacuum catches up (BM25 queries 15x slower meanwhile):
    refresh them. Smaller shares are left to autovacuum (the BM25 tables are analysed
    after 2 % change): analysing a large table at every import cost ~5 % of ingest."""
    if count < BULK_ANALYZE_CHUNKS:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT reltuples FROM pg_class WHERE oid = %s::regclass",
            [ShorttermChunk._meta.db_table],
        )
        known = cursor.fetchone()[0]  # -1 or 0 before the first ANALYZE
        if known > 0 and count < BULK_ANALYZE_GROWTH * known:
            return
        for model in (Bm25Posting, Bm25Term, ShorttermChunk):
            cursor.execute(f"ANALYZE {model._meta.db_table}")


def _insert_chunks(
    memory: ShorttermMemory, prepared: list[PreparedChunk], vectors, first_order: int
):
    """One INSERT for all the chunks, their vectors sent as one binary array (the ORM's
    per-row text formatting of 384 floats cost more than the insert itself)."""
    now = timezone.now()
    orders = [first_order + offset for offset in range(len(prepared))]
    with binary_cursor() as cursor:
        cursor.execute(
            f"""INSERT INTO {ShorttermChunk._meta.db_table}
                    (memory_id, worker_id, chunk_order, content, metadata, embedding, """
            """created_at, updated_at)
                SELECT %s, %s, u.chunk_order, u.content, u.metadata::jsonb, u.embedding, %s, %s
                FROM unnest(%s::int[], %s::text[], %s::text[], %s::vector[])
                     AS u(chunk_order, content, metadata, embedding)
                RETURNING chunk_order, id""",
            [
                memory.pk,
                memory.worker_id,
                now,
                now,
                orders,
                [item.content for item in prepared],
                [json.dumps(item.metadata) for item in prepared],
                vector_array(vectors, cursor),
            ],
        )
        ids = dict(cursor.fetchall())
    chunks = []
    for offset, item in enumerate(prepared):
        chunk = ShorttermChunk(
            pk=ids[orders[offset]],
            memory=memory,
            worker_id=memory.worker_id,
            chunk_order=orders[offset],
            content=item.content,
            metadata=item.metadata,
            embedding=vectors[offset],
            created_at=now,
            updated_at=now,
        )
        chunk._state.adding, chunk._state.db = False, connection.alias
        chunks.append(chunk)
    bm25_index_chunks(tier=Tier.SHORTTERM, chunk_ids=[c.pk for c in chunks])
    _keep_parses(chunks)
    return chunks


def _keep_parses(chunks: list[ShorttermChunk]) -> None:
    """Keep the parse of each chunk whose content this process has just parsed (a section
    extracted or judged before it is written); nothing is parsed here. The others are
    announced once the write commits (``tiers.signals.shortterm_chunks_written``), for the
    layers above to read in the background."""
    shortterm_chunk_parses_keep(chunks={chunk.pk: chunk.content for chunk in chunks})
    unread = [chunk.pk for chunk in chunks if not is_parsed(chunk.content)]
    if not unread:
        return
    announce_after_commit(
        shortterm_chunks_written,
        sender=ShorttermChunk,
        after=f"chunks of worker {chunks[0].worker_id} were written",
        worker_id=chunks[0].worker_id,
        chunk_ids=unread,
    )


def shortterm_chunk_parses_keep(*, chunks: dict[int, str]) -> int:
    """Keep the parse of each ``{chunk_id: content}`` that this process has parsed (by
    consolidation to judge it, or before it was written), so that the next judgement reads
    it back instead of parsing again. Contents never parsed are skipped; a chunk whose
    content is no longer ``content`` (updated meanwhile) or that is gone is left alone.
    Returns how many were stored."""
    items = [(cid, content, stored_form(content)) for cid, content in chunks.items()]
    items = [item for item in items if item[2] is not None]
    if not items:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            f"""INSERT INTO {ShorttermChunkParse._meta.db_table} (chunk_id, data)
                SELECT c.id, u.data
                FROM unnest(%s::bigint[], %s::text[], %s::bytea[]) AS u(id, content, data)
                JOIN {ShorttermChunk._meta.db_table} c ON c.id = u.id AND c.content = u.content
                ON CONFLICT (chunk_id) DO UPDATE SET data = EXCLUDED.data""",
            [[i[0] for i in items], [i[1] for i in items], [i[2] for i in items]],
        )
        return cursor.rowcount


def shortterm_memory_create(
    *,
    worker: Worker,
    title: str,
    summary: str = "",
    metadata: dict | None = None,
    content: str | None = None,
    chunks: list[dict] | None = None,
    embedder=None,
) -> ShorttermMemory:
    """Create a memory from ``content`` (chunked) and/or explicit ``chunks``.

    ``embedder`` replaces the configured provider (bulk imports that embedded already).
    """
    title = _validate_text("title", title)
    if len(title) > 500:
        raise DomainError(
            "title is longer than 500 characters", fields={"title": "at most 500 characters"}
        )
    summary = _validate_text("summary", summary or "", allow_blank=True)
    metadata = validate_metadata(metadata)
    prepared: list[PreparedChunk] = []
    if content is not None:
        prepared += prepare_chunks(
            [{"content": _validate_text("content", content)}], field="content"
        )
    if chunks is not None:
        prepared += prepare_chunks(chunks)
    # Measured: embedding the next batch while writing this one (a pipeline), or beside
    # the extraction, is slower on two cores than one after the other, as the model and
    # the rest compete for them.
    vectors = _embed([embedding_text(item.content, item.metadata) for item in prepared], embedder)
    reading, error = memory_graph().read(
        "\n\n".join([title, summary, *(item.content for item in prepared)])
    )
    with transaction.atomic():
        memory = ShorttermMemory(worker=worker, title=title, summary=summary, metadata=metadata)
        memory.full_clean()
        memory.save()
        _insert_chunks(memory, prepared, vectors, first_order=0)
        memory_graph().store(memory=memory, reading=reading, error=error)
    _refresh_statistics_after_bulk(len(prepared))
    return memory


@transaction.atomic
def shortterm_memory_update(
    *,
    memory: ShorttermMemory,
    title: str | None = None,
    summary: str | None = None,
    metadata: dict | None = None,
) -> ShorttermMemory:
    memory = ShorttermMemory.objects.select_for_update().get(pk=memory.pk)
    if title is not None:
        memory.title = _validate_text("title", title)
    if summary is not None:
        memory.summary = _validate_text("summary", summary, allow_blank=True)
    if metadata is not None:
        memory.metadata = validate_metadata(metadata)
    memory.full_clean()
    memory.save()
    return memory


def shortterm_chunks_add(*, memory: ShorttermMemory, chunks: list[dict]) -> list[ShorttermChunk]:
    """``add_new_shortterm_memory_chunks``: append chunks (long content is split)."""
    prepared = prepare_chunks(chunks)
    if not prepared:
        raise DomainError(
            "chunks must hold at least one chunk", fields={"chunks": "must not be empty"}
        )
    vectors = _embed([embedding_text(item.content, item.metadata) for item in prepared])
    # A memory whose graph is whole is read again only where it grows: the new chunks after
    # the few before them (their context), the graph gaining what they state. Reading the
    # whole memory again cost ~6 ms a chunk it holds (1.7 s at 300); a failed or pending
    # extraction is made whole instead.
    contents = [item.content for item in prepared]
    reading, error, added = _read_growth(
        memory,
        contents,
        before=APPEND_CONTEXT,
        whole=lambda: "\n\n".join([shortterm_memory_text(memory), *contents]),
    )
    with transaction.atomic():
        locked = ShorttermMemory.objects.select_for_update().get(pk=memory.pk)
        last = locked.chunks.aggregate(last=Max("chunk_order"))["last"]
        created = _insert_chunks(
            locked, prepared, vectors, first_order=0 if last is None else last + 1
        )
        memory_graph().store(memory=locked, reading=reading, error=error, added=added)
        locked.last_updated = timezone.now()
        locked.save(update_fields=["last_updated"])
    return created


def _read_growth(memory: ShorttermMemory, grown: list[str] | None, *, whole, before: int = 0):
    """The graph reading of a memory that grows by ``grown`` (its ``before`` last chunks
    with them, ``shortterm_growth_text``): ``(reading, error, True)``; or, with nothing
    grown or no whole graph to add to, of the text ``whole()`` gives: ``(…, False)``."""
    text = shortterm_growth_text(memory, grown=grown, before=before) if grown else None
    if text is not None:
        return (*memory_graph().read(text), True)
    return (*memory_graph().read(whole()), False)


def shortterm_chunks_update(
    *, memory: ShorttermMemory, updates: list[dict], confirmed=None, grown: bool = False
) -> list[ShorttermChunk]:
    """``update_shortterm_memory_chunks``: ``[{chunk_id, new_content}]``, re-embedded and
    re-indexed. A chunk that is not this memory's is a 404 naming it; all or nothing.
    ``confirmed``: the graph reading of a merged section, whose facts gain confidence.
    ``grown``: each new content keeps the old one whole and adds to it (a section merged
    sentence by sentence), so only the new contents are read and their graph added, as for
    appended chunks; otherwise the memory is read whole again."""
    if not isinstance(updates, list) or not updates:
        raise DomainError(
            "updates must be a non-empty list", fields={"updates": "must be a non-empty list"}
        )
    contents: dict[int, str] = {}
    for index, item in enumerate(updates):
        where = f"updates[{index}]"
        if not isinstance(item, dict):
            raise DomainError(f"{where} must be an object", fields={where: "must be an object"})
        chunk_id = item.get("chunk_id")
        if not isinstance(chunk_id, int) or isinstance(chunk_id, bool):
            raise DomainError(
                f"{where}.chunk_id must be an integer",
                fields={f"{where}.chunk_id": "must be an integer"},
            )
        if chunk_id in contents:
            raise DomainError(
                f"chunk {chunk_id} is given twice", fields={f"{where}.chunk_id": "given twice"}
            )
        contents[chunk_id] = _validate_text(f"{where}.new_content", item.get("new_content"))
    known = set(memory.chunks.filter(pk__in=contents).values_list("pk", flat=True))
    missing = [cid for cid in contents if cid not in known]
    if missing:
        raise NotFoundError(
            f"chunk(s) not found in memory {memory.pk}: {', '.join(map(str, missing))}",
            fields={"updates": f"not in this memory: {', '.join(map(str, missing))}"},
        )
    ids = list(contents)
    metadata = dict(ShorttermChunk.objects.filter(pk__in=ids).values_list("pk", "metadata"))
    vectors = _embed([embedding_text(contents[cid], metadata.get(cid)) for cid in ids])
    reading, error, added = _read_growth(
        memory,
        list(contents.values()) if grown else None,
        whole=lambda: shortterm_memory_text(memory, replacements=contents),
    )
    with transaction.atomic():
        locked = ShorttermMemory.objects.select_for_update().get(pk=memory.pk)
        chunks = {
            c.pk: c
            for c in ShorttermChunk.objects.select_for_update().filter(memory=locked, pk__in=ids)
        }
        if len(chunks) != len(ids):  # deleted meanwhile
            raise NotFoundError("a chunk was deleted while it was being updated; retry")
        bm25_unindex_chunks(tier=Tier.SHORTTERM, chunk_ids=ids)
        now = timezone.now()
        for offset, cid in enumerate(ids):
            chunk = chunks[cid]
            chunk.content = contents[cid]
            chunk.embedding = vectors[offset]
            chunk.updated_at = now
        ShorttermChunk.objects.bulk_update(chunks.values(), ["content", "embedding", "updated_at"])
        bm25_index_chunks(tier=Tier.SHORTTERM, chunk_ids=ids)
        ShorttermChunkParse.objects.filter(chunk_id__in=ids).delete()  # of the old content
        _keep_parses(list(chunks.values()))
        locked.last_updated = now
        locked.save(update_fields=["last_updated"])
        memory_graph().store(
            memory=locked, reading=reading, error=error, confirmed=confirmed, added=added
        )
    return [chunks[cid] for cid in ids]


@transaction.atomic
def shortterm_memory_delete(*, memory: ShorttermMemory) -> None:
    locked = ShorttermMemory.objects.select_for_update().get(pk=memory.pk)
    chunk_ids = list(locked.chunks.values_list("pk", flat=True))
    bm25_unindex_chunks(tier=Tier.SHORTTERM, chunk_ids=chunk_ids)
    memory_graph().forget(
        memory_id=locked.pk
    )  # its graph goes too (and leaves the Neo4j projection)
    locked.delete()
    vacuum_after_large_delete(len(chunk_ids))
