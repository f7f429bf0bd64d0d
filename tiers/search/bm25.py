"""The BM25 list: real Okapi BM25 computed in PostgreSQL from the index that
``tiers.search.index`` keeps beside the chunks (DESIGN.md §4)."""

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, connections

from tiers.models import Bm25Corpus, Bm25Posting, Bm25Term
from tiers.search.corpus import Corpus
from tiers.search.filters import filters_sql
from tiers.search.params import SearchParams


@dataclass(frozen=True)
class Bm25Query:
    """The query's lexemes with their idf, and the length normalisation constants."""

    terms: list[str]
    idfs: list[float]
    k1: float
    norm_base: float  # k1 * (1 - b)
    norm_per_length: float  # k1 * b / avgdl

    def score_args(self) -> list[float]:
        """The parameters of ``BM25_TERM_SCORE``."""
        return [self.k1 + 1.0, self.norm_base, self.norm_per_length]


# One posting's share of a chunk's Okapi BM25 score (postings ``p`` joined to the query's
# lexemes ``q(term, idf)``); its three parameters are ``Bm25Query.score_args()``.
BM25_TERM_SCORE = "q.idf * p.tf * %s::float8 / (p.tf + %s::float8 + %s::float8 * p.doc_length)"


def bm25_query(
    *, worker_id: int, corpus: Corpus, text: str, cursor, tiers: list[str] | None = None
) -> Bm25Query | None:
    """Look up the query's lexemes (``to_tsvector`` of the same configuration) and their
    document frequencies over the BM25 tier keys read (``tiers``, default the corpus's
    own); None when no lexeme occurs in the worker's corpus."""
    config = settings.MEMORYHUB_SEARCH
    tiers = tiers or [corpus.tier]
    cursor.execute(
        f"""
        WITH k AS (
            SELECT sum(doc_count) AS doc_count, sum(total_length) AS total_length
            FROM {Bm25Corpus._meta.db_table} WHERE worker_id = %s AND tier = ANY(%s)
        ), t AS (
            SELECT term, sum(df) AS df FROM {Bm25Term._meta.db_table}
            WHERE worker_id = %s AND tier = ANY(%s)
              AND term IN (SELECT lexeme FROM unnest(to_tsvector(%s::regconfig, %s)))
            GROUP BY term
        )
        SELECT k.doc_count, k.total_length, t.term, t.df FROM k, t ORDER BY t.term
        """,
        [worker_id, tiers, worker_id, tiers, config["ts_config"], text],
    )
    rows = cursor.fetchall()
    if not rows:
        return None
    n, total_length = float(rows[0][0]), float(rows[0][1])
    avgdl = total_length / n if n else 1.0
    k1, b = float(config["bm25_k1"]), float(config["bm25_b"])
    return Bm25Query(
        terms=[term for _, _, term, _ in rows],
        idfs=[math.log(1.0 + (n - df + 0.5) / (df + 0.5)) for _, _, _, df in rows],
        k1=k1,
        norm_base=k1 * (1.0 - b),
        norm_per_length=k1 * b / max(avgdl, 1e-9),
    )


def bm25_ranked(
    *, worker_id: int, corpus: Corpus, params: SearchParams, cursor, query: Bm25Query | None = None
) -> list[tuple[int, float]]:
    """(chunk id, Okapi BM25 score), the best ``params.candidates``.

    score = Σ idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · |d| / avgdl)) over the query's
    lexemes, read from the postings' covering index by term (``tiers.search.hits`` scores
    the few hits that only the vector list found, by chunk).
    """
    tiers = corpus.bm25_tiers(params)
    query = query or bm25_query(
        worker_id=worker_id, corpus=corpus, text=params.query, cursor=cursor, tiers=tiers
    )
    if query is None:
        return []
    extra, filter_args = filters_sql(params, corpus, current_postings=tiers == [corpus.tier])
    join = (
        f" JOIN {corpus.chunks} c ON c.id = p.chunk_id AND c.worker_id = p.worker_id"
        if extra
        else ""
    )
    cursor.execute(
        f"""
        SELECT p.chunk_id,
               sum({BM25_TERM_SCORE}) AS score
        FROM {Bm25Posting._meta.db_table} p
        JOIN unnest(%s::text[], %s::float8[]) AS q(term, idf) ON q.term = p.term{join}
        WHERE p.worker_id = %s AND p.tier = ANY(%s){extra}
        GROUP BY p.chunk_id
        ORDER BY score DESC, p.chunk_id LIMIT %s
        """,
        [
            *query.score_args(),
            query.terms,
            query.idfs,
            worker_id,
            tiers,
            *filter_args,
            params.candidates,
        ],
    )
    return cursor.fetchall()


def bm25_list(
    worker_id: int, corpus: Corpus, params: SearchParams, cursor
) -> tuple[Bm25Query | None, list]:
    """The query's lexemes and statistics (kept to score the vector list's other chunks
    without looking them up again) and the BM25 list (none in ``vector`` mode)."""
    query = bm25_query(
        worker_id=worker_id,
        corpus=corpus,
        text=params.query,
        cursor=cursor,
        tiers=corpus.bm25_tiers(params),
    )
    if params.mode == "vector" or query is None:
        return query, []
    return query, bm25_ranked(
        worker_id=worker_id, corpus=corpus, params=params, cursor=cursor, query=query
    )


# The BM25 list is read on a second connection beside the vector list (one thread, so
# one extra connection per process).
_bm25_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bm25")


def _bm25_on_own_connection(worker_id: int, corpus: Corpus, params: SearchParams):
    """On this thread's own connection. Not ``close_old_connections()``: with health checks
    on it makes the next query ping the server first, a round trip per search. A
    connection past its age is replaced; one that breaks is replaced and the list read
    again, once."""
    if connection.connection is not None and (
        connection.errors_occurred
        or (connection.close_at is not None and time.monotonic() >= connection.close_at)
    ):
        connection.close()
    for attempt in (1, 2):
        try:
            with connection.cursor() as cursor:
                return bm25_list(worker_id, corpus, params, cursor)
        except (InterfaceError, OperationalError):
            if attempt == 2 or connection.is_usable():
                raise
            connection.close()


def bm25_list_in_background(worker_id: int, corpus: Corpus, params: SearchParams):
    """Start ``bm25_list`` on the second connection; ``.result()`` gives it."""
    return _bm25_pool.submit(_bm25_on_own_connection, worker_id, corpus, params)


def search_connections_close() -> None:
    """Close the BM25 thread's database connection (tests, before dropping a database)."""
    _bm25_pool.submit(connections.close_all).result()
