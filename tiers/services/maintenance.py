"""Upkeep of the shortterm tables after large deletes.

Deleting a large worker leaves its rows dead until autovacuum gets there (exact scans read
them meanwhile), and leaves the shared HNSW graph full of deleted elements that every
other worker's vector search still walks: measured after deleting a 100k-chunk worker
beside a 10k one, the 10k worker's vector query took 8.7 ms instead of 2.1 ms until the
index was rebuilt (199 MB → 19 MB). So a large delete queues a VACUUM (ANALYZE) and, when
it took a large share of the graph, a ``REINDEX CONCURRENTLY`` (writes and searches go on
meanwhile).
"""

import logging

from django.conf import settings
from django.db import connection, transaction

from memoryhub.errors import DomainError
from tiers.models import Bm25Posting, Bm25Term, ShorttermChunk
from tiers.services.reembed import HNSW_INDEX

logger = logging.getLogger(__name__)

SHORTTERM_TABLES = (ShorttermChunk, Bm25Posting, Bm25Term)
REINDEX_SHARE = 0.3  # of the graph's elements deleted, from which it is rebuilt


def vacuum_after_large_delete(chunk_count: int) -> None:
    """Once the deleting transaction commits, queue the upkeep if it removed
    ``MEMORYHUB_VACUUM_AFTER_DELETE_CHUNKS`` chunks or more."""
    threshold = settings.MEMORYHUB_CHUNKING["vacuum_after_delete"]
    if threshold and chunk_count >= threshold:
        from django_q.tasks import async_task

        transaction.on_commit(
            lambda: async_task(
                "tiers.tasks.vacuum_shortterm_tables",
                chunk_count,
                timeout=settings.MEMORYHUB_CHUNKING["maintenance_timeout"],
            )
        )


def shortterm_worker_deleting(*, worker, **_) -> dict[str, int]:
    """``memoryhub.signals.worker_deleting``: the worker's shortterm chunks go with it; a
    large share's upkeep is queued for after the commit."""
    chunk_count = ShorttermChunk.objects.filter(worker=worker).count()
    vacuum_after_large_delete(chunk_count)
    return {"shortterm_chunks": chunk_count}


def shortterm_tables_vacuum(
    *, deleted: int = 0, reindex: bool | None = None, log=logger.info
) -> dict:
    """VACUUM (ANALYZE) the chunk and BM25 tables, then rebuild the HNSW graph if
    ``deleted`` chunks were at least ``REINDEX_SHARE`` of it (or when ``reindex`` says so).
    Cannot run inside a transaction; safe to run twice. Returns what it did."""
    if connection.in_atomic_block:
        raise DomainError("VACUUM cannot run inside a transaction")
    tables = [model._meta.db_table for model in SHORTTERM_TABLES]
    with connection.cursor() as cursor:
        for table in tables:
            log(f"vacuum (analyze) {table}")
            cursor.execute(f"VACUUM (ANALYZE) {table}")
        cursor.execute(
            "SELECT greatest(reltuples, 0)::bigint FROM pg_class WHERE oid = %s::regclass",
            [tables[0]],
        )
        live = cursor.fetchone()[0]
        if reindex is None:
            reindex = deleted > 0 and deleted >= REINDEX_SHARE * (deleted + live)
        if reindex:
            # A rebuild that was interrupted leaves an invalid copy behind: drop it first.
            cursor.execute(
                """SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                   WHERE NOT i.indisvalid AND c.relname LIKE %s""",
                [f"{HNSW_INDEX}_ccnew%"],
            )
            for (leftover,) in cursor.fetchall():
                cursor.execute(f'DROP INDEX CONCURRENTLY IF EXISTS "{leftover}"')
            log(f"rebuild {HNSW_INDEX} ({live} chunks; {deleted} deleted)")
            cursor.execute(f"REINDEX INDEX CONCURRENTLY {HNSW_INDEX}")
    return {"tables": tables, "live_chunks": live, "reindexed": reindex}
