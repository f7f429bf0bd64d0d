"""Search results: typed hits with their component scores, read in one round trip."""

import json
from dataclasses import dataclass, fields
from datetime import datetime

from tiers.models import Bm25Posting
from tiers.search.bm25 import BM25_TERM_SCORE, Bm25Query
from tiers.search.corpus import Corpus


@dataclass
class SearchHit:
    chunk_id: int
    memory_id: int
    memory_title: str
    chunk_order: int
    content: str
    metadata: dict
    similarity: float | None  # cosine similarity to the query (None when not embedded)
    bm25_score: float  # Okapi BM25 (0 when no query lexeme occurs in the chunk)
    fused_score: float | None  # reciprocal rank fusion (hybrid mode)
    vector_rank: int | None  # rank in the vector list, when the chunk is in it
    bm25_rank: int | None  # rank in the BM25 list, when the chunk is in it
    rank: int = 0  # 1-based position in the results
    graph: dict | None = None  # {"entities", "relationships"} of the hit's chunk, when asked
    # Longterm versions: when the version was valid and how confident it is.
    start_date: datetime | None = None
    end_date: datetime | None = None
    confidence: float | None = None
    temporal: bool = False

    def as_dict(self) -> dict:
        """The hit as plain data, without deep-copying its graph and metadata (``asdict``
        would, and for a page of hits with their graphs that cost ~100 ms)."""
        data = {name: getattr(self, name) for name in _PLAIN_FIELDS}
        if self.graph is not None:
            data["graph"] = self.graph
        if self.temporal:
            data |= {
                "start_date": self.start_date,
                "end_date": self.end_date,
                "confidence": self.confidence,
            }
        return data


_PLAIN_FIELDS = tuple(
    f.name
    for f in fields(SearchHit)
    if f.name not in ("graph", "start_date", "end_date", "confidence", "temporal")
)


def read_hits(
    ids: list[int],
    corpus: Corpus,
    query_vector: str | None,
    cursor,
    *,
    lexemes: Bm25Query | None = None,
    bm25_ids: list[int] = (),
) -> dict[int, tuple]:
    """The hits' rows with their similarity and, for ``bm25_ids`` (hits the BM25 list did
    not score), their BM25 score under ``lexemes``: one round trip. ``{id: (id, memory_id,
    title, chunk_order, content, metadata, similarity, bm25)}``."""
    similarity, similarity_args = (
        ("1 - (c.embedding <=> %s::vector)", [query_vector])
        if query_vector
        else ("NULL::float8", [])
    )
    bm25, bm25_args = "NULL::float8", []
    if lexemes is not None and bm25_ids:
        bm25 = f"""CASE WHEN c.id = ANY(%s) THEN (
            SELECT coalesce(sum({BM25_TERM_SCORE}), 0)
            FROM {Bm25Posting._meta.db_table} p
            JOIN unnest(%s::text[], %s::float8[]) AS q(term, idf) ON q.term = p.term
            WHERE p.tier = ANY(%s) AND p.chunk_id = c.id) END"""
        bm25_args = [
            list(bm25_ids),
            *lexemes.score_args(),
            lexemes.terms,
            lexemes.idfs,
            corpus.bm25_tier_keys,
        ]
    # Longterm versions carry their validity and confidence.
    corpus_extra = ", c.start_date, c.end_date, c.confidence" if corpus.temporal else ""
    cursor.execute(
        f"""
        SELECT c.id, c.{corpus.memory_column}, {corpus.title_sql()}, c.chunk_order, c.content, """
        f"""c.metadata, {similarity}, {bm25}{corpus_extra}
        FROM {corpus.from_sql()} WHERE c.id = ANY(%s)
        """,
        [*similarity_args, *bm25_args, ids],
    )
    return {row[0]: row for row in cursor.fetchall()}


def hit_from_row(
    row: tuple,
    *,
    bm25_score: float | None,
    fused: float | None,
    vector_rank: int | None,
    bm25_rank: int | None,
) -> SearchHit:
    return SearchHit(
        chunk_id=row[0],
        memory_id=row[1],
        memory_title=row[2],
        chunk_order=row[3],
        content=row[4],
        metadata=row[5] if isinstance(row[5], dict) else json.loads(row[5]),
        similarity=None if row[6] is None else float(row[6]),
        bm25_score=bm25_score
        if bm25_score is not None
        else (0.0 if row[7] is None else float(row[7])),
        fused_score=fused,
        vector_rank=vector_rank,
        bm25_rank=bm25_rank,
        **(
            {"start_date": row[8], "end_date": row[9], "confidence": row[10], "temporal": True}
            if len(row) > 8
            else {}
        ),
    )
