"""The BM25 index in PostgreSQL (DESIGN.md §4): what search reads, written beside the chunks.

Lexemes come from ``to_tsvector(<ts_config>, content)``. For every chunk we keep its
postings (lexeme, term frequency, document length) and, per worker and tier, the
document frequency of each lexeme and the corpus size and total length. These functions
run inside the caller's transaction, next to the chunk write they account for, so the
statistics can never disagree with the chunks.

Lock order: term rows are upserted sorted by lexeme, so two concurrent writers of one
worker never deadlock on them.
"""

from django.conf import settings
from django.db import connection

from tiers.models import Bm25Corpus, Bm25Posting, Bm25Term
from tiers.search.corpus import CORPORA

CHUNK_TABLES = {corpus.tier: corpus.chunks for corpus in CORPORA.values()}
CHUNK_MODELS = {corpus.tier: corpus.chunk_model for corpus in CORPORA.values()}


def _ts_config() -> str:
    return settings.MEMORYHUB_SEARCH["ts_config"]


def bm25_index_chunks(*, tier: str, chunk_ids: list[int]) -> None:
    """Add postings and statistics for chunks that are not indexed yet."""
    if not chunk_ids:
        return
    posting, term, corpus = (
        Bm25Posting._meta.db_table,
        Bm25Term._meta.db_table,
        Bm25Corpus._meta.db_table,
    )
    chunks = CHUNK_TABLES[tier]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            WITH lexemes AS (
                SELECT c.id AS chunk_id, c.worker_id, t.lexeme,
                       coalesce(array_length(t.positions, 1), 1) AS tf
                FROM {chunks} c, unnest(to_tsvector(%s::regconfig, c.content)) AS t
                WHERE c.id = ANY(%s)
            ), lengths AS (
                SELECT chunk_id, sum(tf)::int AS doc_length FROM lexemes GROUP BY chunk_id
            )
            INSERT INTO {posting} (worker_id, tier, term, chunk_id, tf, doc_length)
            SELECT l.worker_id, %s, l.lexeme, l.chunk_id, l.tf, g.doc_length
            FROM lexemes l JOIN lengths g USING (chunk_id)
            """,
            [_ts_config(), chunk_ids, tier],
        )
        cursor.execute(
            f"""
            INSERT INTO {term} (worker_id, tier, term, df)
            SELECT worker_id, tier, term, count(*) FROM {posting}
            WHERE tier = %s AND chunk_id = ANY(%s)
            GROUP BY worker_id, tier, term ORDER BY worker_id, term
            ON CONFLICT (worker_id, tier, term) DO UPDATE SET df = {term}.df + EXCLUDED.df
            """,
            [tier, chunk_ids],
        )
        cursor.execute(
            f"""
            INSERT INTO {corpus} (worker_id, tier, doc_count, total_length)
            SELECT c.worker_id, %s, count(*), coalesce(sum(p.doc_length), 0)
            FROM {chunks} c
            LEFT JOIN (SELECT DISTINCT chunk_id, doc_length FROM {posting}
                       WHERE tier = %s AND chunk_id = ANY(%s)) p ON p.chunk_id = c.id
            WHERE c.id = ANY(%s)
            GROUP BY c.worker_id ORDER BY c.worker_id
            ON CONFLICT (worker_id, tier) DO UPDATE SET
                doc_count = {corpus}.doc_count + EXCLUDED.doc_count,
                total_length = {corpus}.total_length + EXCLUDED.total_length
            """,
            [tier, tier, chunk_ids, chunk_ids],
        )


def bm25_unindex_chunks(*, tier: str, chunk_ids: list[int]) -> None:
    """Remove the postings of chunks (before they are deleted or their content changes)."""
    if not chunk_ids:
        return
    posting, term, corpus = (
        Bm25Posting._meta.db_table,
        Bm25Term._meta.db_table,
        Bm25Corpus._meta.db_table,
    )
    chunks = CHUNK_TABLES[tier]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            UPDATE {term} t SET df = t.df - d.n
            FROM (SELECT worker_id, term, count(*) AS n FROM {posting}
                  WHERE tier = %s AND chunk_id = ANY(%s)
                  GROUP BY worker_id, term ORDER BY worker_id, term) d
            WHERE t.worker_id = d.worker_id AND t.tier = %s AND t.term = d.term
            RETURNING t.id, t.df
            """,
            [tier, chunk_ids, tier],
        )
        unused = [term_id for term_id, df in cursor.fetchall() if df <= 0]
        if unused:
            cursor.execute(f"DELETE FROM {term} WHERE id = ANY(%s)", [unused])
        cursor.execute(
            f"""
            UPDATE {corpus} k SET doc_count = k.doc_count - d.n, """
            f"""total_length = k.total_length - d.len
            FROM (SELECT c.worker_id, count(*) AS n, coalesce(sum(p.doc_length), 0) AS len
                  FROM {chunks} c
                  LEFT JOIN (SELECT DISTINCT chunk_id, doc_length FROM {posting}
                             WHERE tier = %s AND chunk_id = ANY(%s)) p ON p.chunk_id = c.id
                  WHERE c.id = ANY(%s) GROUP BY c.worker_id) d
            WHERE k.worker_id = d.worker_id AND k.tier = %s
            """,
            [tier, chunk_ids, chunk_ids, tier],
        )
        cursor.execute(
            f"DELETE FROM {posting} WHERE tier = %s AND chunk_id = ANY(%s)", [tier, chunk_ids]
        )


def bm25_reindex_worker(*, tier: str, worker_id: int) -> int:
    """Rebuild a worker's postings and statistics from its chunks (after a change of
    text search configuration). Returns how many chunks were indexed."""
    Bm25Posting.objects.filter(tier=tier, worker_id=worker_id).delete()
    Bm25Term.objects.filter(tier=tier, worker_id=worker_id).delete()
    Bm25Corpus.objects.filter(tier=tier, worker_id=worker_id).delete()
    ids = list(CHUNK_MODELS[tier].objects.filter(worker_id=worker_id).values_list("id", flat=True))
    for start in range(0, len(ids), 2000):
        bm25_index_chunks(tier=tier, chunk_ids=ids[start : start + 2000])
    return len(ids)
