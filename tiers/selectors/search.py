"""Search over a worker's chunks: vector (pgvector cosine), BM25 (Okapi, in PostgreSQL)
and hybrid (reciprocal rank fusion of the two). DESIGN.md §4."""

import json
import math
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import asdict, dataclass

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, connections

from memoryhub.errors import DomainError, NotFoundError
from memoryhub.models import Worker
from memoryhub.providers.embeddings import get_embedder, one_model_thread, vector_literal
from tiers.models import Bm25Corpus, Bm25Posting, Bm25Term, ShorttermChunk, ShorttermMemory, Tier

MODES = ("vector", "bm25", "hybrid")


@dataclass
class SearchHit:
    chunk_id: int
    memory_id: int
    memory_title: str
    chunk_order: int
    content: str
    metadata: dict
    similarity: float | None
    bm25_score: float
    fused_score: float | None
    vector_rank: int | None
    bm25_rank: int | None
    rank: int = 0

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class SearchParams:
    query: str
    mode: str
    limit: int
    min_similarity: float | None
    memory_ids: tuple[int, ...] | None
    metadata: dict | None
    vector_weight: float
    bm25_weight: float
    candidates: int
    exact: bool | None


def search_params(
    *,
    query,
    mode: str = "hybrid",
    limit=None,
    min_similarity=None,
    memory_ids=None,
    metadata=None,
    vector_weight=None,
    bm25_weight=None,
    candidates=None,
    exact=None,
) -> SearchParams:
    """Validate search input; each problem is a DomainError naming its field."""
    config = settings.MEMORYHUB_SEARCH
    if not isinstance(query, str) or not query.strip():
        raise DomainError("query must be a non-empty string", fields={"query": "must not be empty"})
    if len(query) > config["max_query_chars"]:
        raise DomainError(
            f"query is longer than {config['max_query_chars']} characters",
            fields={"query": f"at most {config['max_query_chars']} characters"},
        )
    if mode not in MODES:
        raise DomainError(f"mode must be one of {', '.join(MODES)}", fields={"mode": f"not one of {', '.join(MODES)}"})
    limit = config["default_limit"] if limit is None else limit
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= config["max_limit"]:
        raise DomainError(
            f"limit must be an integer from 1 to {config['max_limit']}",
            fields={"limit": f"must be 1 to {config['max_limit']}"},
        )
    if min_similarity is not None and (
        not isinstance(min_similarity, (int, float)) or isinstance(min_similarity, bool)
        or not -1.0 <= min_similarity <= 1.0
    ):
        raise DomainError("min_similarity must be a number from -1 to 1", fields={"min_similarity": "must be -1 to 1"})
    if metadata is not None and not isinstance(metadata, dict):
        raise DomainError("metadata must be a JSON object", fields={"metadata": "must be a JSON object"})
    weights = []
    for name, value, default in (("vector_weight", vector_weight, config["vector_weight"]),
                                 ("bm25_weight", bm25_weight, config["bm25_weight"])):
        value = default if value is None else value
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0 or not math.isfinite(value):
            raise DomainError(f"{name} must be a number ≥ 0", fields={name: "must be a number ≥ 0"})
        weights.append(float(value))
    candidates = max(limit, config["candidates"] if candidates is None else candidates)
    return SearchParams(
        query=query.strip(),
        mode=mode,
        limit=limit,
        min_similarity=None if min_similarity is None else float(min_similarity),
        memory_ids=None if memory_ids is None else tuple(dict.fromkeys(memory_ids)),
        metadata=metadata or None,
        vector_weight=weights[0],
        bm25_weight=weights[1],
        candidates=min(candidates, 1000),
        exact=exact,
    )


def check_memory_ids(*, worker: Worker, memory_ids) -> tuple[int, ...]:
    """Every id must be one of the worker's shortterm memories: otherwise a 404 naming
    the ids (never a silently partial answer)."""
    if not isinstance(memory_ids, (list, tuple)) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in memory_ids
    ):
        raise DomainError("memory_ids must be a list of integers", fields={"memory_ids": "must be integers"})
    ids = tuple(dict.fromkeys(memory_ids))
    found = set(ShorttermMemory.objects.filter(worker=worker, pk__in=ids).values_list("pk", flat=True))
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFoundError(
            f"shortterm memor{'y' if len(missing) == 1 else 'ies'} not found: {', '.join(map(str, missing))}",
            fields={"memory_ids": f"not found: {', '.join(map(str, missing))}"},
        )
    return ids


def _filters(params: SearchParams, alias: str = "c") -> tuple[str, list]:
    sql, args = "", []
    if params.memory_ids is not None:
        sql += f" AND {alias}.memory_id = ANY(%s)"
        args.append(list(params.memory_ids))
    if params.metadata:
        sql += f" AND {alias}.metadata @> %s::jsonb"
        args.append(json.dumps(params.metadata))
    return sql, args


_chunk_counts: dict[int, tuple[int, float]] = {}
CHUNK_COUNT_TTL = 30.0  # seconds; the count only picks exact or HNSW search and its ef


def _worker_chunk_count(worker_id: int, cursor) -> tuple[int, int]:
    """The worker's shortterm chunk count and (the planner's estimate of) all workers'
    chunks, remembered per process for a few seconds (one round trip less per query)."""
    cached = _chunk_counts.get(worker_id)
    if cached is not None and time.monotonic() - cached[1] < CHUNK_COUNT_TTL:
        return cached[0]
    cursor.execute(
        f"""SELECT (SELECT doc_count FROM {Bm25Corpus._meta.db_table} WHERE worker_id = %s AND tier = %s),
                   (SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass)""",
        [worker_id, Tier.SHORTTERM, ShorttermChunk._meta.db_table],
    )
    mine, everyone = cursor.fetchone()
    counts = (mine or 0, max(everyone or 0, mine or 0))
    _chunk_counts[worker_id] = (counts, time.monotonic())
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
    ef = config["hnsw_ef_search_large"] if chunk_count > config["hnsw_large_worker"] else config["hnsw_ef_search"]
    return max(ef, candidates)


def vector_ranked(*, worker_id: int, query_vector: str, params: SearchParams, cursor) -> list[tuple[int, float]]:
    """(chunk id, cosine similarity), best first. HNSW for large workers, exact otherwise
    (or when filtered to a few memories, or when asked)."""
    exact = params.exact
    count, everyone = _worker_chunk_count(worker_id, cursor)
    if exact is None:
        exact = params.memory_ids is not None or use_exact_search(count, everyone)
    if exact:
        # "+ 0": an order no index can give, so PostgreSQL scans the worker's rows (and
        # computes each distance once: the ORDER BY names the selected column).
        distance, settings_sql = "(c.embedding <=> %s::vector) + 0", ""
    else:
        # relaxed_order: pgvector keeps scanning past filtered-out rows (other workers)
        # without the cost of a strict order; the rows are re-sorted below. The settings
        # travel with the query: one round trip.
        distance = "c.embedding <=> %s::vector"
        ef = hnsw_ef_search(count, params.candidates)
        settings_sql = f"SET LOCAL hnsw.ef_search = {int(ef)}; SET LOCAL hnsw.iterative_scan = relaxed_order; "
    table = ShorttermChunk._meta.db_table
    extra, args = _filters(params)
    cursor.execute(
        settings_sql + f"""
        SELECT c.id, {distance} AS distance FROM {table} c
        WHERE c.worker_id = %s AND c.embedding IS NOT NULL{extra}
        ORDER BY distance LIMIT %s
        """,
        [query_vector, worker_id, *args, params.candidates],
    )
    while cursor.description is None and cursor.nextset():  # past the SETs' empty results
        pass
    return sorted(((cid, 1.0 - distance) for cid, distance in cursor.fetchall()), key=lambda row: (-row[1], row[0]))


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


def bm25_query(*, worker_id: int, text: str, cursor) -> Bm25Query | None:
    """Look up the query's lexemes (``to_tsvector`` of the same configuration) and their
    document frequencies; None when no lexeme occurs in the worker's corpus."""
    config = settings.MEMORYHUB_SEARCH
    cursor.execute(
        f"""
        SELECT k.doc_count, k.total_length, t.term, t.df
        FROM {Bm25Corpus._meta.db_table} k
        JOIN {Bm25Term._meta.db_table} t ON t.worker_id = k.worker_id AND t.tier = k.tier
        WHERE k.worker_id = %s AND k.tier = %s
          AND t.term IN (SELECT lexeme FROM unnest(to_tsvector(%s::regconfig, %s)))
        ORDER BY t.term
        """,
        [worker_id, Tier.SHORTTERM, config["ts_config"], text],
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


def bm25_ranked(*, worker_id: int, params: SearchParams, cursor, query: Bm25Query | None = None):
    """(chunk id, Okapi BM25 score), the best ``params.candidates``.

    score = Σ idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · |d| / avgdl)) over the query's
    lexemes, read from the postings' covering index by term (``_details`` scores the few
    hits that only the vector list found, by chunk).
    """
    query = query or bm25_query(worker_id=worker_id, text=params.query, cursor=cursor)
    if query is None:
        return []
    posting = Bm25Posting._meta.db_table
    extra, filter_args = _filters(params)
    join = f" JOIN {ShorttermChunk._meta.db_table} c ON c.id = p.chunk_id" if extra else ""
    cursor.execute(
        f"""
        SELECT p.chunk_id,
               sum({BM25_TERM_SCORE}) AS score
        FROM {posting} p
        JOIN unnest(%s::text[], %s::float8[]) AS q(term, idf) ON q.term = p.term{join}
        WHERE p.worker_id = %s AND p.tier = %s{extra}
        GROUP BY p.chunk_id
        ORDER BY score DESC, p.chunk_id LIMIT %s
        """,
        [*query.score_args(), query.terms, query.idfs, worker_id, Tier.SHORTTERM, *filter_args,
         params.candidates],
    )
    return cursor.fetchall()


def _details(ids: list[int], query_vector: str | None, cursor, *, lexemes: Bm25Query | None = None,
             bm25_ids: list[int] = ()) -> dict[int, tuple]:
    """The hits' rows with their similarity and, for ``bm25_ids`` (hits the BM25 list did
    not score), their BM25 score under ``lexemes``: one round trip."""
    chunks, memories = ShorttermChunk._meta.db_table, ShorttermMemory._meta.db_table
    similarity, similarity_args = ("1 - (c.embedding <=> %s::vector)", [query_vector]) if query_vector \
        else ("NULL::float8", [])
    bm25, bm25_args = "NULL::float8", []
    if lexemes is not None and bm25_ids:
        bm25 = f"""CASE WHEN c.id = ANY(%s) THEN (
            SELECT coalesce(sum({BM25_TERM_SCORE}), 0)
            FROM {Bm25Posting._meta.db_table} p JOIN unnest(%s::text[], %s::float8[]) AS q(term, idf) ON q.term = p.term
            WHERE p.tier = %s AND p.chunk_id = c.id) END"""
        bm25_args = [list(bm25_ids), *lexemes.score_args(), lexemes.terms, lexemes.idfs, Tier.SHORTTERM]
    cursor.execute(
        f"""
        SELECT c.id, c.memory_id, m.title, c.chunk_order, c.content, c.metadata, {similarity}, {bm25}
        FROM {chunks} c JOIN {memories} m ON m.id = c.memory_id WHERE c.id = ANY(%s)
        """,
        [*similarity_args, *bm25_args, ids],
    )
    return {row[0]: row for row in cursor.fetchall()}


_bm25_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bm25")


def _bm25_list(worker_id: int, params: SearchParams, cursor) -> tuple[Bm25Query | None, list]:
    """The query's lexemes and statistics (kept to score the vector list's other chunks
    without looking them up again) and the BM25 list."""
    query = bm25_query(worker_id=worker_id, text=params.query, cursor=cursor)
    if params.mode == "vector":  # the lexemes only: the hits' BM25 is scored with their details
        return query, []
    return query, (bm25_ranked(worker_id=worker_id, params=params, cursor=cursor, query=query) if query else [])


def _bm25_on_own_connection(worker_id: int, params: SearchParams):
    """On this thread's own connection. Not ``close_old_connections()``: with health checks
    on it makes the next query ping the server first, a round trip per search. A
    connection past its age is replaced; one that breaks is replaced and the list read
    again, once."""
    if connection.connection is not None and (
        connection.errors_occurred or (connection.close_at is not None and time.monotonic() >= connection.close_at)
    ):
        connection.close()
    for attempt in (1, 2):
        try:
            with connection.cursor() as cursor:
                return _bm25_list(worker_id, params, cursor)
        except (InterfaceError, OperationalError):
            if attempt == 2 or connection.is_usable():
                raise
            connection.close()


def search_connections_close() -> None:
    """Close the BM25 thread's database connection (tests, before dropping a database)."""
    _bm25_pool.submit(connections.close_all).result()


def _best_ids(ids: list[int], params: SearchParams, vector_rows, bm25_rows, fused: dict[int, float]) -> list[int]:
    """The candidates that can end in the first ``limit`` results, so that only those are
    read in full and scored by the other method: the lists' own order is the result order
    (similarity then id; BM25 score then id); fused scores keep every tie at the cut."""
    if params.mode == "vector":
        return [cid for cid, _ in vector_rows[: params.limit]]
    if params.mode == "bm25":
        return [cid for cid, _ in bm25_rows[: params.limit]]
    if len(ids) <= params.limit:
        return ids
    cut = sorted(fused.values(), reverse=True)[params.limit - 1]
    return [cid for cid in ids if fused[cid] >= cut]


def shortterm_search(*, worker: Worker, params: SearchParams) -> list[SearchHit]:
    """One query over one worker's shortterm chunks. Results carry cosine similarity,
    BM25 score, both ranks and (hybrid) the fused RRF score.

    ``bm25`` mode is purely lexical: it embeds the query (and reports similarity) only
    when ``min_similarity`` asks for it. In ``hybrid`` mode the BM25 list (in ``vector``
    mode the query's lexemes) is read on a second connection beside the vector list (not
    inside an open transaction, whose uncommitted rows another connection cannot see).
    """
    if params.memory_ids is not None:
        check_memory_ids(worker=worker, memory_ids=list(params.memory_ids))
    # Vector mode too looks up the query's lexemes (to report the hits' BM25 scores) on
    # the second connection, beside the vector list.
    parallel_bm25 = params.mode in ("hybrid", "vector") and not connection.in_atomic_block
    bm25_first = False
    if parallel_bm25 and params.mode == "hybrid":
        with connection.cursor() as cursor:
            bm25_first = _worker_chunk_count(worker.pk, cursor)[0] > settings.MEMORYHUB_SEARCH["bm25_first_above"]
    # Large workers: BM25 takes longer than embedding the query, so it starts at once and
    # the model gets one thread. Smaller ones: the query is embedded on both threads first,
    # then the two lists are read at once (measured at 10k chunks: p50 16 → 13 ms; at 100k
    # the other way round: 23 → 26 ms).
    bm25_future = _bm25_pool.submit(_bm25_on_own_connection, worker.pk, params) if bm25_first else None
    needs_vector = params.mode != "bm25" or params.min_similarity is not None
    query_vector = None
    if needs_vector:
        with one_model_thread() if bm25_first else nullcontext():
            query_vector = vector_literal(get_embedder().embed_query(params.query))
    if parallel_bm25 and bm25_future is None:
        bm25_future = _bm25_pool.submit(_bm25_on_own_connection, worker.pk, params)
    rrf_k = settings.MEMORYHUB_SEARCH["rrf_k"]
    # No transaction: each statement reads committed data (a chunk deleted in between is
    # skipped below), and the vector query carries its settings in its own statement.
    with connection.cursor() as cursor:
        vector_rows = (
            vector_ranked(worker_id=worker.pk, query_vector=query_vector, params=params, cursor=cursor)
            if params.mode in ("vector", "hybrid") else []
        )
        if bm25_future is not None:
            bm25_lexemes, bm25_rows = bm25_future.result()
        else:
            bm25_lexemes, bm25_rows = _bm25_list(worker.pk, params, cursor)
        vector_rank = {cid: i + 1 for i, (cid, _) in enumerate(vector_rows)}
        bm25_rank = {cid: i + 1 for i, (cid, _) in enumerate(bm25_rows)}
        bm25_score = {cid: float(score) for cid, score in bm25_rows}
        ids = list(dict.fromkeys([cid for cid, _ in vector_rows] + [cid for cid, _ in bm25_rows]))
        if not ids:
            return []
        fused = {}
        if params.mode == "hybrid":
            fused = {cid: (params.vector_weight / (rrf_k + vector_rank[cid]) if cid in vector_rank else 0.0)
                     + (params.bm25_weight / (rrf_k + bm25_rank[cid]) if cid in bm25_rank else 0.0) for cid in ids}
        if params.min_similarity is None:
            ids = _best_ids(ids, params, vector_rows, bm25_rows, fused)
        details = _details(ids, query_vector, cursor, lexemes=bm25_lexemes,
                           bm25_ids=[cid for cid in ids if cid not in bm25_score])

    hits = []
    for cid in ids:
        row = details.get(cid)
        if row is None:
            continue  # deleted between the queries
        hits.append(
            SearchHit(
                chunk_id=cid, memory_id=row[1], memory_title=row[2], chunk_order=row[3], content=row[4],
                metadata=row[5] if isinstance(row[5], dict) else json.loads(row[5]),
                similarity=None if row[6] is None else float(row[6]),
                bm25_score=bm25_score.get(cid, 0.0 if row[7] is None else float(row[7])), fused_score=fused.get(cid),
                vector_rank=vector_rank.get(cid), bm25_rank=bm25_rank.get(cid),
            )
        )
    if params.min_similarity is not None:
        hits = [h for h in hits if h.similarity is not None and h.similarity >= params.min_similarity]
    if params.mode == "hybrid":
        hits.sort(key=lambda h: (-h.fused_score, -(h.similarity or 0.0), h.chunk_id))
    elif params.mode == "vector":
        hits.sort(key=lambda h: (-(h.similarity or 0.0), h.chunk_id))
    else:
        hits.sort(key=lambda h: (-h.bm25_score, h.chunk_id))
    hits = hits[: params.limit]
    for position, hit in enumerate(hits, start=1):
        hit.rank = position
    return hits


def shortterm_search_queries(*, worker: Worker, queries, params: SearchParams) -> list[dict]:
    """The retriever's ``search_queries``: ``[{shortterm_memory_id, search_content}]``,
    each searched within its memory. All ids are checked before any search runs."""
    if not isinstance(queries, list) or not queries:
        raise DomainError("search_queries must be a non-empty list", fields={"search_queries": "must not be empty"})
    for index, item in enumerate(queries):
        if not isinstance(item, dict) or not isinstance(item.get("shortterm_memory_id"), int):
            raise DomainError(
                f"search_queries[{index}] needs shortterm_memory_id (integer) and search_content",
                fields={f"search_queries[{index}]": "needs shortterm_memory_id and search_content"},
            )
    check_memory_ids(worker=worker, memory_ids=[item["shortterm_memory_id"] for item in queries])
    groups = []
    for index, item in enumerate(queries):
        try:
            one = search_params(**{**params.__dict__, "query": item.get("search_content"),
                                   "memory_ids": [item["shortterm_memory_id"]]})
        except DomainError as exc:
            raise DomainError(
                f"search_queries[{index}]: {exc.detail}",
                fields={f"search_queries[{index}].search_content": exc.detail},
            ) from exc
        groups.append(
            {
                "shortterm_memory_id": item["shortterm_memory_id"],
                "search_content": one.query,
                "results": [hit.as_dict() for hit in shortterm_search(worker=worker, params=one)],
            }
        )
    return groups
