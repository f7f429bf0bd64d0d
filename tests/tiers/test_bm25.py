"""BM25 in PostgreSQL agrees with an independent implementation (bm25s) to 1e-6, and its
statistics stay exact through inserts, updates and deletes."""

import random

import bm25s
import numpy as np
import pytest
from django.db import connection

from tests.factories import WorkerFactory
from tiers.models import Bm25Corpus, Bm25Posting, Bm25Term, ShorttermChunk, Tier
from tiers.search import SHORTTERM, search_params
from tiers.search.bm25 import bm25_ranked
from tiers.services.shortterm import (
    shortterm_chunks_add,
    shortterm_chunks_update,
    shortterm_memory_create,
    shortterm_memory_delete,
)

pytestmark = pytest.mark.django_db

WORDS = (
    "agent deploy budget token service gateway memory search vector index cluster "
    "queue review conflict merge reviewer planner database latency throughput"
).split()


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 25))) + "."


def _lexemes(chunk_ids: list[int]) -> dict[int, list[str]]:
    """Each chunk's lexemes, repeated by term frequency, straight from to_tsvector."""
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT c.id, t.lexeme, coalesce(array_length(t.positions, 1), 1)
               FROM tiers_shorttermchunk c LEFT JOIN LATERAL """
            """unnest(to_tsvector('english', c.content)) t ON true
               WHERE c.id = ANY(%s)""",
            [chunk_ids],
        )
        tokens: dict[int, list[str]] = {cid: [] for cid in chunk_ids}
        for cid, lexeme, tf in cursor.fetchall():
            if lexeme is not None:
                tokens[cid].extend([lexeme] * tf)
    return tokens


def _query_lexemes(text: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', %s))", [text])
        return [row[0] for row in cursor.fetchall()]


def _check_statistics(worker) -> None:
    """Bm25Corpus/Bm25Term equal what a recount of the postings and chunks gives."""
    chunks = list(ShorttermChunk.objects.filter(worker=worker).values_list("id", flat=True))
    tokens = _lexemes(chunks) if chunks else {}
    corpus = Bm25Corpus.objects.filter(worker=worker, tier=Tier.SHORTTERM).first()
    assert (corpus.doc_count if corpus else 0) == len(chunks)
    assert (corpus.total_length if corpus else 0) == sum(len(t) for t in tokens.values())
    expected_df: dict[str, int] = {}
    for toks in tokens.values():
        for term in set(toks):
            expected_df[term] = expected_df.get(term, 0) + 1
    actual_df = dict(
        Bm25Term.objects.filter(worker=worker, tier=Tier.SHORTTERM).values_list("term", "df")
    )
    assert actual_df == expected_df
    assert set(Bm25Posting.objects.filter(worker=worker).values_list("chunk_id", flat=True)) <= set(
        chunks
    )


def test_scores_agree_with_bm25s(settings):
    rng = random.Random(7)
    worker = WorkerFactory()
    chunks = [
        {"content": " ".join(_sentence(rng) for _ in range(rng.randint(1, 4)))} for _ in range(120)
    ]
    chunks.append({"content": "the and of"})  # only stop words: a document of length 0
    shortterm_memory_create(worker=worker, title="corpus", chunks=chunks)
    ids = list(
        ShorttermChunk.objects.filter(worker=worker).order_by("id").values_list("id", flat=True)
    )
    tokens = _lexemes(ids)
    k1, b = settings.MEMORYHUB_SEARCH["bm25_k1"], settings.MEMORYHUB_SEARCH["bm25_b"]
    reference = bm25s.BM25(k1=k1, b=b, method="lucene", dtype="float64")
    reference.index([tokens[cid] for cid in ids], show_progress=False)

    for query in [
        "deploy budget",
        "vector index latency throughput",
        "reviewer merge conflict conflict",
        "planner",
    ]:
        terms = _query_lexemes(query)
        expected = reference.get_scores(terms) * (
            k1 + 1
        )  # Okapi's (k1 + 1) numerator; bm25s drops it
        params = search_params(query=query, mode="bm25", limit=100, candidates=1000)
        with connection.cursor() as cursor:
            ours = dict(
                bm25_ranked(worker_id=worker.pk, corpus=SHORTTERM, params=params, cursor=cursor)
            )
        for position, cid in enumerate(ids):
            assert ours.get(cid, 0.0) == pytest.approx(expected[position], abs=1e-6), (query, cid)
        assert len(ours) == int(np.count_nonzero(expected))


def test_statistics_follow_inserts_updates_and_deletes():
    rng = random.Random(3)
    worker, other = WorkerFactory(), WorkerFactory()
    memories = [
        shortterm_memory_create(
            worker=worker, title=f"m{i}", chunks=[{"content": _sentence(rng)} for _ in range(5)]
        )
        for i in range(4)
    ]
    shortterm_memory_create(
        worker=other, title="other", chunks=[{"content": "deploy budget token"}]
    )
    _check_statistics(worker)

    shortterm_chunks_add(
        memory=memories[0], chunks=[{"content": _sentence(rng)}, {"content": "planner planner."}]
    )
    _check_statistics(worker)

    chunk_ids = list(memories[1].chunks.values_list("id", flat=True))[:3]
    shortterm_chunks_update(
        memory=memories[1],
        updates=[{"chunk_id": cid, "new_content": _sentence(rng)} for cid in chunk_ids],
    )
    _check_statistics(worker)

    shortterm_memory_delete(memory=memories[2])
    _check_statistics(worker)
    _check_statistics(other)

    for memory in (memories[0], memories[1], memories[3]):
        shortterm_memory_delete(memory=memory)
    _check_statistics(worker)
    assert not Bm25Term.objects.filter(worker=worker).exists()
    assert Bm25Corpus.objects.get(worker=worker).doc_count == 0
    assert Bm25Term.objects.filter(worker=other).exists()


def test_deleting_a_worker_removes_its_index():
    worker = WorkerFactory()
    shortterm_memory_create(worker=worker, title="t", chunks=[{"content": "deploy budget token"}])
    worker.delete()
    assert (
        not Bm25Posting.objects.exists()
        and not Bm25Term.objects.exists()
        and not Bm25Corpus.objects.exists()
    )
