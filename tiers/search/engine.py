"""The one search entry point over a worker's chunks: vector (pgvector cosine), BM25
(Okapi, in PostgreSQL) and hybrid (reciprocal rank fusion of the two). DESIGN.md §4."""

from contextlib import nullcontext

from django.conf import settings
from django.db import connection

from memoryhub.errors import DomainError
from memoryhub.models import Worker
from memoryhub.providers.embeddings import get_embedder, one_model_thread, vector_literal
from tiers.memory_graph import memory_graph
from tiers.search.bm25 import bm25_list, bm25_list_in_background
from tiers.search.corpus import Corpus, corpus_get
from tiers.search.filters import check_memory_ids
from tiers.search.fusion import best_ids, ranks, rrf_scores, sort_key
from tiers.search.hits import SearchHit, hit_from_row, read_hits
from tiers.search.neighbours import lend_scores, neighbour_pairs
from tiers.search.params import SearchParams, search_params
from tiers.search.speakers import favour_speakers
from tiers.search.vector import vector_ranked, worker_chunk_count


def search(
    *,
    worker: Worker,
    query: str | None = None,
    corpus: str | Corpus = "shortterm",
    mode: str = "hybrid",
    limit: int | None = None,
    filters: dict | None = None,
    with_graph: bool = False,
    params: SearchParams | None = None,
    **options,
) -> list[SearchHit]:
    """One query over one worker's chunks of ``corpus`` (``shortterm`` or ``longterm``).

    ``filters``: ``{"memory_ids": [...], "metadata": {...}}``. ``options``: the other
    ``search_params`` (``min_similarity``, ``vector_weight``, ``bm25_weight``,
    ``candidates``, ``exact``); or pass ``params`` validated already. Hits carry cosine
    similarity, BM25 score, both ranks, (hybrid) the fused RRF score and, ``with_graph``,
    the entities and relationships of their chunk.
    """
    corpus = corpus_get(corpus)
    if params is None:
        params = search_params(query=query, mode=mode, limit=limit, **(filters or {}), **options)
    _check_temporal(corpus, params)
    hits = _ranked_hits(worker, corpus, params)
    if with_graph:
        attach_graphs(worker, hits, corpus)
    return hits


def search_queries(
    *,
    worker: Worker,
    queries,
    corpus: str | Corpus = "shortterm",
    with_graph: bool = False,
    **options,
) -> list[dict]:
    """The retriever's ``search_queries``: ``[{shortterm_memory_id, search_content}]``,
    each searched within its memory, with the same options. All ids are checked before
    any search runs."""
    corpus = corpus_get(corpus)
    options.pop("memory_ids", None)  # each query is searched within its own memory
    if not isinstance(queries, list) or not queries:
        raise DomainError(
            "search_queries must be a non-empty list",
            fields={"search_queries": "must not be empty"},
        )
    for index, item in enumerate(queries):
        if not isinstance(item, dict) or not isinstance(item.get("shortterm_memory_id"), int):
            raise DomainError(
                f"search_queries[{index}] needs shortterm_memory_id (integer) and search_content",
                fields={f"search_queries[{index}]": "needs shortterm_memory_id and search_content"},
            )
    _check_temporal(corpus, search_params(query="-", **options))  # valid before any id is read
    check_memory_ids(
        worker=worker, corpus=corpus, memory_ids=[item["shortterm_memory_id"] for item in queries]
    )
    groups = []
    for index, item in enumerate(queries):
        try:
            params = search_params(
                query=item.get("search_content"),
                memory_ids=[item["shortterm_memory_id"]],
                **options,
            )
        except DomainError as exc:
            raise DomainError(
                f"search_queries[{index}]: {exc.detail}",
                fields={f"search_queries[{index}].search_content": exc.detail},
            ) from exc
        hits = _ranked_hits(worker, corpus, params)
        groups.append(
            {
                "shortterm_memory_id": item["shortterm_memory_id"],
                "search_content": params.query,
                "hits": hits,
            }
        )
    if with_graph:
        attach_graphs(worker, [hit for group in groups for hit in group["hits"]])
    return groups


def _check_temporal(corpus: Corpus, params: SearchParams) -> None:
    """``valid_at``, ``time_range`` and ``confidence_threshold`` mean something only for a
    temporal corpus (longterm): elsewhere they are an error, not silently ignored."""
    if corpus.temporal:
        return
    for name in ("valid_at", "time_range", "confidence_threshold"):
        if getattr(params, name) is not None:
            raise DomainError(
                f"{name} applies to the longterm corpus only",
                fields={name: "longterm only"},
            )


def attach_graphs(worker: Worker, hits: list[SearchHit], corpus: Corpus | None = None) -> None:
    """Each hit's graph: the entities and relationships of its chunk (one query for all);
    for longterm versions, the longterm graph promoted from their source."""
    ids = [hit.chunk_id for hit in hits]
    if corpus is not None and corpus.temporal:
        graphs = memory_graph().of_longterm_chunks(worker=worker, chunk_ids=ids)
    else:
        graphs = memory_graph().of_chunks(worker=worker, chunk_ids=ids)
    for hit in hits:
        hit.graph = graphs.get(hit.chunk_id, {"entities": [], "relationships": []})


def _ranked_hits(worker: Worker, corpus: Corpus, params: SearchParams) -> list[SearchHit]:
    """``bm25`` mode is purely lexical: it embeds the query (and reports similarity) only
    when ``min_similarity`` asks for it. In ``hybrid`` mode the BM25 list (in ``vector``
    mode the query's lexemes) is read on a second connection beside the vector list (not
    inside an open transaction, whose uncommitted rows another connection cannot see)."""
    if params.memory_ids is not None:
        check_memory_ids(worker=worker, corpus=corpus, memory_ids=list(params.memory_ids))
    # Vector mode too looks up the query's lexemes (to report the hits' BM25 scores) on
    # the second connection, beside the vector list.
    parallel_bm25 = params.mode in ("hybrid", "vector") and not connection.in_atomic_block
    bm25_first = False
    if parallel_bm25 and params.mode == "hybrid":
        with connection.cursor() as cursor:
            mine = worker_chunk_count(worker.pk, corpus, cursor)[0]
            bm25_first = mine > settings.MEMORYHUB_SEARCH["bm25_first_above"]
    # Large workers: BM25 takes longer than embedding the query, so it starts at once and
    # the model gets one thread. Smaller ones: the query is embedded on both threads first,
    # then the two lists are read at once (measured at 10k chunks: p50 16 → 13 ms; at 100k
    # the other way round: 23 → 26 ms).
    bm25_future = bm25_list_in_background(worker.pk, corpus, params) if bm25_first else None
    needs_vector = params.mode != "bm25" or params.min_similarity is not None
    query_vector = None
    if needs_vector:
        with one_model_thread() if bm25_first else nullcontext():
            query_vector = vector_literal(get_embedder().embed_query(params.query))
    if parallel_bm25 and bm25_future is None:
        bm25_future = bm25_list_in_background(worker.pk, corpus, params)
    # No transaction: each statement reads committed data (a chunk deleted in between is
    # skipped below), and the vector query carries its settings in its own statement.
    with connection.cursor() as cursor:
        vector_rows = (
            vector_ranked(
                worker_id=worker.pk,
                query_vector=query_vector,
                params=params,
                cursor=cursor,
                corpus=corpus,
            )
            if params.mode in ("vector", "hybrid")
            else []
        )
        if bm25_future is not None:
            lexemes, bm25_rows = bm25_future.result()
        else:
            lexemes, bm25_rows = bm25_list(worker.pk, corpus, params, cursor)
        vector_rank, bm25_rank = ranks(vector_rows), ranks(bm25_rows)
        bm25_score = {cid: float(score) for cid, score in bm25_rows}
        ids = list(dict.fromkeys([cid for cid, _ in vector_rows] + [cid for cid, _ in bm25_rows]))
        if not ids:
            return []
        fused = {}
        if params.mode == "hybrid":
            fused = rrf_scores(
                ids,
                vector_rank,
                bm25_rank,
                k=settings.MEMORYHUB_SEARCH["rrf_k"],
                vector_weight=params.vector_weight,
                bm25_weight=params.bm25_weight,
            )
            if params.neighbours and params.neighbour_weight:
                fused = _with_neighbours(worker.pk, corpus, params, fused, cursor)
                ids = list(dict.fromkeys([*ids, *fused]))
            if params.speaker_weight:
                fused = favour_speakers(
                    fused, params.query, corpus, cursor, weight=params.speaker_weight
                )
        if params.min_similarity is None:
            ids = best_ids(ids, params, vector_rows, bm25_rows, fused)
        rows = read_hits(
            ids,
            corpus,
            query_vector,
            cursor,
            lexemes=lexemes,
            bm25_ids=[cid for cid in ids if cid not in bm25_score],
        )
    hits = [
        hit_from_row(
            rows[cid],
            bm25_score=bm25_score.get(cid),
            fused=fused.get(cid),
            vector_rank=vector_rank.get(cid),
            bm25_rank=bm25_rank.get(cid),
        )
        for cid in ids
        if cid in rows
    ]  # a chunk deleted between the queries is left out
    if params.min_similarity is not None:
        hits = [
            h for h in hits if h.similarity is not None and h.similarity >= params.min_similarity
        ]
    hits.sort(key=sort_key(params.mode))
    hits = hits[: params.limit]
    for position, hit in enumerate(hits, start=1):
        hit.rank = position
    return hits


def _with_neighbours(
    worker_id: int, corpus: Corpus, params: SearchParams, fused: dict[int, float], cursor
) -> dict[int, float]:
    """The fused scores after the best hits lend a share to their neighbouring chunks."""
    seeds = sorted(fused, key=lambda cid: (-fused[cid], cid))[
        : settings.MEMORYHUB_SEARCH["neighbour_seeds"]
    ]
    pairs = neighbour_pairs(
        worker_id=worker_id, corpus=corpus, seeds=seeds, params=params, cursor=cursor
    )
    return lend_scores(fused, pairs, weight=params.neighbour_weight, decay=params.neighbour_decay)
