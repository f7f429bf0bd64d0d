"""The vector list: cosine similarity of the chunks' embeddings to the query's (pgvector),
exact for small workers and filtered searches, HNSW otherwise."""

import time

from django.conf import settings
from django.db import connection

from memoryhub.providers.embeddings import get_embedder, vector_literal
from tiers.models import Bm25Corpus
from tiers.search.corpus import SHORTTERM, Corpus
from tiers.search.filters import filters_sql
from tiers.search.params import SearchParams

_chunk_counts: dict[tuple[int, str], tuple[tuple[int, int], float]] = {}
CHUNK_COUNT_TTL = 30.0  # seconds; the count only picks exact or HNSW search and its ef


def worker_chunk_count(worker_id: int, corpus: Corpus, cursor) -> tuple[int, int]:
    """The worker's chunk count in the corpus and (the planner's estimate of) all
    workers', remembered per process for a few seconds (one round trip less per query)."""
    key = (worker_id, corpus.name)
    cached = _chunk_counts.get(key)
    if cached is not None and time.monotonic() - cached[1] < CHUNK_COUNT_TTL:
        return cached[0]
    cursor.execute(
        f"""SELECT (SELECT doc_count FROM {Bm25Corpus._meta.db_table} WHERE worker_id = %s """
        """AND tier = %s),
                   (SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass)""",
        [worker_id, corpus.tier, corpus.chunks],
    )
    mine, everyone = cursor.fetchone()
    counts = (mine or 0, max(everyone or 0, mine or 0))
    _chunk_counts[key] = (counts, time.monotonic())
    return counts


def use_exact_search(mine: int, everyone: int) -> bool:
    """Exact search for small workers, and for workers that hold a small share of all
    chunks: the HNSW graph is shared, and filtering it down to a few percent of its rows
    is slower and less exact than scanning the worker's own chunks (measured: a 10k-chunk
    worker beside a 100k-chunk one, HNSW recall@10 0.93 at 29 ms, exact 1.0 at ~7 ms)."""
    config = settings.MEMORYHUB_SEARCH
    return mine <= config["exact_below"] or mine < config["hnsw_min_share"] * everyone


def hnsw_ef_search(chunk_count: int, candidates: int) -> int:
    """The HNSW candidate list: MEMORYHUB_HNSW_EF_SEARCH, or _EF_SEARCH_LARGE for workers
    above MEMORYHUB_HNSW_LARGE_WORKER chunks (recall falls as the graph grows), never
    fewer than the candidates asked for."""
    config = settings.MEMORYHUB_SEARCH
    large = chunk_count > config["hnsw_large_worker"]
    ef = config["hnsw_ef_search_large"] if large else config["hnsw_ef_search"]
    return max(ef, candidates)


def vector_ranked(
    *, worker_id: int, query_vector: str, params: SearchParams, cursor, corpus: Corpus = SHORTTERM
) -> list[tuple[int, float]]:
    """(chunk id, cosine similarity), best first (then by id). HNSW for large workers,
    exact otherwise (or when filtered to a few memories, or when asked)."""
    exact = params.exact
    count, everyone = worker_chunk_count(worker_id, corpus, cursor)
    if exact is None:
        exact = params.memory_ids is not None or use_exact_search(count, everyone)
    if exact:
        # "+ 0": an order no index can give, so PostgreSQL scans the worker's rows (and
        # computes each distance once: the ORDER BY names the selected column).
        distance, order, settings_sql = "(c.embedding <=> %s::vector) + 0", "distance, c.id", ""
    else:
        # relaxed_order: pgvector keeps scanning past filtered-out rows (other workers)
        # without the cost of a strict order; the rows are re-sorted below. The settings
        # travel with the query: one round trip.
        distance, order = (
            "c.embedding <=> %s::vector",
            "distance",
        )  # the HNSW index's order, nothing more
        ef = hnsw_ef_search(count, params.candidates)
        settings_sql = (
            f"SET LOCAL hnsw.ef_search = {int(ef)}; SET LOCAL hnsw.iterative_scan = relaxed_order; "
        )
    extra, args = filters_sql(params, corpus)
    cursor.execute(
        settings_sql
        + f"""
        SELECT c.id, {distance} AS distance FROM {corpus.chunks} c
        WHERE c.worker_id = %s AND c.embedding IS NOT NULL{extra}
        ORDER BY {order} LIMIT %s
        """,
        [query_vector, worker_id, *args, params.candidates],
    )
    while cursor.description is None and cursor.nextset():  # past the SETs' empty results
        pass
    return sorted(
        ((cid, 1.0 - distance) for cid, distance in cursor.fetchall()),
        key=lambda row: (-row[1], row[0]),
    )


def nearest_chunks(
    *,
    text: str,
    worker_id: int,
    limit: int,
    memory_id: int | None = None,
    corpus: Corpus = SHORTTERM,
    vector=None,
) -> list[dict]:
    """The ``limit`` chunks of a worker (or of one of its memories) most like ``text``,
    embedded as a document (or given as its ``vector``, embedded before), by exact cosine
    (a scan of the worker's own rows, never the shared HNSW graph, whose filtering could
    miss some): ``[{chunk_id, memory_id, chunk_order, content, similarity}]``, most
    similar first. Consolidation's candidates and ``auto_resolve``'s similar chunks."""
    if vector is None:
        vector = get_embedder().embed_documents([text])[0]
    vector = vector_literal(vector)
    params = SearchParams(
        query=text,
        mode="vector",
        limit=limit,
        min_similarity=None,
        memory_ids=None if memory_id is None else (memory_id,),
        metadata=None,
        valid_at=None,
        time_range=None,
        confidence_threshold=None,
        vector_weight=1.0,
        bm25_weight=0.0,
        candidates=limit,
        exact=True,
    )
    with connection.cursor() as cursor:
        ranked = vector_ranked(
            worker_id=worker_id, query_vector=vector, params=params, cursor=cursor, corpus=corpus
        )
        if not ranked:
            return []
        cursor.execute(
            f"SELECT id, {corpus.memory_column}, chunk_order, content FROM {corpus.chunks} "
            "WHERE id = ANY(%s)",
            [[cid for cid, _ in ranked]],
        )
        rows = {row[0]: row for row in cursor.fetchall()}
    return [
        {
            "chunk_id": cid,
            "memory_id": rows[cid][1],
            "chunk_order": rows[cid][2],
            "content": rows[cid][3],
            "similarity": similarity,
        }
        for cid, similarity in ranked
        if cid in rows
    ]
