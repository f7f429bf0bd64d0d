"""Putting the two ranked lists together: reciprocal rank fusion (k=60 by default, with
optional weights), the candidates worth reading in full, and the final order."""

from tiers.search.params import SearchParams


def ranks(rows: list[tuple[int, float]]) -> dict[int, int]:
    """chunk id → its 1-based rank in a list ordered best first."""
    return {cid: position for position, (cid, _) in enumerate(rows, start=1)}


def rrf_scores(
    ids: list[int],
    vector_rank: dict[int, int],
    bm25_rank: dict[int, int],
    *,
    k: int,
    vector_weight: float,
    bm25_weight: float,
) -> dict[int, float]:
    """Σ weight / (k + rank) over the lists a chunk is in."""
    return {
        cid: (vector_weight / (k + vector_rank[cid]) if cid in vector_rank else 0.0)
        + (bm25_weight / (k + bm25_rank[cid]) if cid in bm25_rank else 0.0)
        for cid in ids
    }


def best_ids(
    ids: list[int], params: SearchParams, vector_rows, bm25_rows, fused: dict[int, float]
) -> list[int]:
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


def sort_key(mode: str):
    """The result order of a mode; ties go to the more similar chunk, then the older id."""
    if mode == "hybrid":
        return lambda h: (-h.fused_score, -(h.similarity or 0.0), h.chunk_id)
    if mode == "vector":
        return lambda h: (-(h.similarity or 0.0), h.chunk_id)
    return lambda h: (-h.bm25_score, h.chunk_id)
