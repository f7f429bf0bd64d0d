import pytest
from django.db import connection

from memoryhub.errors import DomainError, NotFoundError
from tests.factories import WorkerFactory
from tiers.search import SHORTTERM, search, search_params
from tiers.search.vector import vector_ranked
from tiers.services.shortterm import shortterm_memory_create

pytestmark = pytest.mark.django_db

FACTS = [
    "We use JWT tokens for authentication at the API gateway.",
    "The Q3 budget for the marketing team is $50,000.",
    "Deploys happen every Tuesday through the CI pipeline.",
    "The planner agent hands tasks to the coder agent.",
    "Database backups run nightly at 02:00 UTC.",
]


@pytest.fixture
def corpus(worker):
    auth = shortterm_memory_create(
        worker=worker, title="Auth", chunks=[{"content": FACTS[0], "metadata": {"topic": "auth"}}]
    )
    rest = shortterm_memory_create(
        worker=worker,
        title="Ops",
        chunks=[
            {"content": fact, "metadata": {"topic": "ops", "n": i}}
            for i, fact in enumerate(FACTS[1:])
        ],
    )
    return auth, rest


def _search(worker, **kwargs):
    return search(worker=worker, **kwargs)


@pytest.mark.parametrize("mode", ["vector", "bm25", "hybrid"])
def test_each_mode_finds_the_matching_chunk_first(worker, corpus, mode):
    hits = _search(worker, query="marketing budget Q3", mode=mode)
    assert hits[0].content == FACTS[1]
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    top = hits[0]
    assert top.memory_title == "Ops" and top.metadata == {"topic": "ops", "n": 0}
    assert top.bm25_score > 0
    assert (top.similarity is None) == (mode == "bm25")  # bm25 mode does not embed the query


def test_hybrid_fuses_with_rrf_and_carries_both_scores(worker, corpus, settings):
    # neighbours=0: RRF alone (neighbour expansion: test_search_ranking.py)
    hits = _search(worker, query="JWT authentication tokens", mode="hybrid", neighbours=0)
    k = settings.MEMORYHUB_SEARCH["rrf_k"]
    for hit in hits:
        expected = (1 / (k + hit.vector_rank) if hit.vector_rank else 0) + (
            1 / (k + hit.bm25_rank) if hit.bm25_rank else 0
        )
        assert hit.fused_score == pytest.approx(expected)
    assert [h.fused_score for h in hits] == sorted((h.fused_score for h in hits), reverse=True)
    assert hits[0].content == FACTS[0] and hits[0].vector_rank == 1 and hits[0].bm25_rank == 1


def test_weights_change_the_fusion(worker, corpus, settings):
    k = settings.MEMORYHUB_SEARCH["rrf_k"]
    bm25_only = _search(
        worker,
        query="nightly backups pipeline",
        mode="hybrid",
        vector_weight=0,
        bm25_weight=1,
        neighbours=0,
    )
    assert all(
        h.fused_score == pytest.approx(1 / (k + h.bm25_rank)) if h.bm25_rank else h.fused_score == 0
        for h in bm25_only
    )


def test_min_similarity_filters_on_cosine(worker, corpus):
    everything = _search(worker, query="JWT authentication tokens gateway", mode="vector")
    cutoff = everything[0].similarity - 1e-6
    kept = _search(
        worker, query="JWT authentication tokens gateway", mode="vector", min_similarity=cutoff
    )
    assert [h.chunk_id for h in kept] == [everything[0].chunk_id]


def test_filters_by_memory_and_metadata(worker, corpus):
    auth, ops = corpus
    only_ops = _search(worker, query="JWT tokens budget", mode="hybrid", memory_ids=[ops.pk])
    assert only_ops and {h.memory_id for h in only_ops} == {ops.pk}
    by_meta = _search(
        worker, query="budget deploys", mode="bm25", metadata={"topic": "ops", "n": 1}
    )
    assert [h.content for h in by_meta] == [FACTS[2]]


def test_another_workers_chunks_never_appear(worker, corpus):
    other = WorkerFactory()
    shortterm_memory_create(
        worker=other, title="secret", chunks=[{"content": "The Q3 budget secret is $1."}]
    )
    for mode in ("vector", "bm25", "hybrid"):
        assert all(
            h.memory_title != "secret" for h in _search(worker, query="Q3 budget secret", mode=mode)
        )


def test_an_unknown_or_foreign_memory_id_is_404(worker, corpus):
    other = WorkerFactory()
    foreign = shortterm_memory_create(worker=other, title="x", chunks=[{"content": "x y z"}])
    with pytest.raises(NotFoundError) as caught:
        _search(worker, query="budget", memory_ids=[corpus[0].pk, foreign.pk, 999999])
    assert str(foreign.pk) in caught.value.detail and "999999" in caught.value.detail


def test_hnsw_and_exact_agree_on_a_small_corpus(worker, corpus):
    params = search_params(query="backups at night", mode="vector", limit=5)
    with connection.cursor() as cursor:
        exact = vector_ranked(
            worker_id=worker.pk,
            query_vector=_vec("backups at night"),
            params=params.__class__(**{**params.__dict__, "exact": True}),
            cursor=cursor,
        )
        approx = vector_ranked(
            worker_id=worker.pk,
            query_vector=_vec("backups at night"),
            params=params.__class__(**{**params.__dict__, "exact": False}),
            cursor=cursor,
        )
    assert [cid for cid, _ in exact] == [cid for cid, _ in approx]


def _vec(text):
    from memoryhub.providers.embeddings import get_embedder, vector_literal

    return vector_literal(get_embedder().embed_query(text))


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"query": ""}, "query"),
        ({"query": "   "}, "query"),
        ({"query": 5}, "query"),
        ({"query": "x" * 5000}, "query"),
        ({"query": "x", "mode": "fuzzy"}, "mode"),
        ({"query": "x", "limit": 0}, "limit"),
        ({"query": "x", "limit": 101}, "limit"),
        ({"query": "x", "limit": "10"}, "limit"),
        ({"query": "x", "min_similarity": 2}, "min_similarity"),
        ({"query": "x", "metadata": [1]}, "metadata"),
        ({"query": "x", "vector_weight": -1}, "vector_weight"),
    ],
)
def test_bad_search_input_names_the_field(kwargs, field):
    with pytest.raises(DomainError) as caught:
        search_params(**kwargs)
    assert field in caught.value.fields


@pytest.mark.django_db(transaction=True)
def test_hybrid_outside_a_transaction_reads_bm25_on_a_second_connection(worker):
    shortterm_memory_create(
        worker=worker, title="Ops", chunks=[{"content": fact} for fact in FACTS]
    )
    from django.db import connection

    assert not connection.in_atomic_block  # the parallel path
    parallel = _search(worker, query="nightly database backups", mode="hybrid")
    from django.db import transaction

    with transaction.atomic():  # the sequential path
        sequential = _search(worker, query="nightly database backups", mode="hybrid")
    assert [h.as_dict() for h in parallel] == [h.as_dict() for h in sequential]
    assert parallel[0].content == FACTS[4] and parallel[0].bm25_rank == 1


def test_large_workers_search_hnsw_with_a_longer_candidate_list(settings):
    from tiers.search.vector import hnsw_ef_search

    settings.MEMORYHUB_SEARCH = {
        **settings.MEMORYHUB_SEARCH,
        "hnsw_ef_search": 100,
        "hnsw_ef_search_large": 200,
        "hnsw_large_worker": 50000,
    }
    assert hnsw_ef_search(10_000, 60) == 100
    assert hnsw_ef_search(100_000, 60) == 200
    assert hnsw_ef_search(10_000, 150) == 150  # never fewer than the candidates asked for


def test_workers_with_a_small_share_of_the_chunks_are_searched_exactly(settings):
    from tiers.search.vector import use_exact_search

    settings.MEMORYHUB_SEARCH = {
        **settings.MEMORYHUB_SEARCH,
        "exact_below": 5000,
        "hnsw_min_share": 0.25,
    }
    assert use_exact_search(4000, 4000)  # small
    assert not use_exact_search(100_000, 110_000)  # most of the table: HNSW
    assert use_exact_search(10_000, 110_000)  # 9% of the table: a scan of its own rows


@pytest.mark.parametrize("mode", ["vector", "bm25", "hybrid"])
def test_a_smaller_limit_returns_the_head_of_the_longer_list(worker, corpus, mode):
    """Only the candidates that can reach the first `limit` are read in full: the result
    must be the same as cutting the full list."""
    from tiers.search import search, search_params

    def ranked(limit):
        return [
            (h.chunk_id, h.similarity, h.bm25_score, h.fused_score)
            for h in search(
                worker=worker,
                params=search_params(query="JWT token gateway", mode=mode, limit=limit),
            )
        ]

    full = ranked(10)
    for limit in (1, 2, 3):
        assert ranked(limit) == full[:limit]


def test_hits_outside_the_bm25_list_carry_the_score_the_list_would_give(worker, corpus):
    """Vector mode scores its hits' BM25 in the details query; it must agree with the
    BM25 ranking itself (and give 0 to chunks that share no lexeme with the query)."""
    from tiers.search.bm25 import bm25_ranked

    query = "JWT tokens at the marketing gateway"
    params = search_params(query=query, mode="bm25", limit=10)
    with connection.cursor() as cursor:
        lexical = {
            cid: float(score)
            for cid, score in bm25_ranked(
                worker_id=worker.pk, corpus=SHORTTERM, params=params, cursor=cursor
            )
        }
    hits = _search(worker, query=query, mode="vector", limit=10)
    assert len(hits) == len(FACTS) and len(lexical) >= 2
    for hit in hits:
        assert hit.bm25_score == pytest.approx(lexical.get(hit.chunk_id, 0.0), abs=1e-9)


@pytest.mark.django_db(transaction=True)
def test_the_bm25_thread_replaces_a_broken_connection(worker):
    """The parallel BM25 list runs on the search thread's own connection; if the server
    dropped it, the list is read again on a new one instead of failing the search."""
    from tiers.search import bm25 as search_module

    shortterm_memory_create(
        worker=worker, title="Ops", chunks=[{"content": fact} for fact in FACTS]
    )
    assert not connection.in_atomic_block  # the parallel path
    _search(
        worker, query="nightly database backups", mode="hybrid"
    )  # opens the thread's connection

    def own_backend():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return cursor.fetchone()[0]

    pid = search_module._bm25_pool.submit(own_backend).result()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    hits = _search(worker, query="nightly database backups", mode="hybrid")
    assert hits[0].content == FACTS[4] and hits[0].bm25_rank == 1
    assert search_module._bm25_pool.submit(own_backend).result() != pid  # a new connection
