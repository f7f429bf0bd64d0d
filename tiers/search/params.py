"""A search's parameters, validated once: each problem is a DomainError naming its field."""

import math
from dataclasses import dataclass

from django.conf import settings

from memoryhub.errors import DomainError

MODES = ("vector", "bm25", "hybrid")


@dataclass(frozen=True)
class SearchParams:
    query: str
    mode: str
    limit: int
    min_similarity: float | None
    memory_ids: tuple[int, ...] | None  # filter: only these memories' chunks
    metadata: dict | None  # filter: chunks whose metadata contains this object
    vector_weight: float
    bm25_weight: float
    candidates: int
    exact: bool | None


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


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
    config = settings.MEMORYHUB_SEARCH
    if not isinstance(query, str) or not query.strip():
        raise DomainError("query must be a non-empty string", fields={"query": "must not be empty"})
    if len(query) > config["max_query_chars"]:
        raise DomainError(
            f"query is longer than {config['max_query_chars']} characters",
            fields={"query": f"at most {config['max_query_chars']} characters"},
        )
    if mode not in MODES:
        raise DomainError(
            f"mode must be one of {', '.join(MODES)}",
            fields={"mode": f"not one of {', '.join(MODES)}"},
        )
    limit = config["default_limit"] if limit is None else limit
    if (
        not isinstance(limit, int)
        or isinstance(limit, bool)
        or not 1 <= limit <= config["max_limit"]
    ):
        raise DomainError(
            f"limit must be an integer from 1 to {config['max_limit']}",
            fields={"limit": f"must be 1 to {config['max_limit']}"},
        )
    if min_similarity is not None and (
        not _number(min_similarity) or not -1.0 <= min_similarity <= 1.0
    ):
        raise DomainError(
            "min_similarity must be a number from -1 to 1",
            fields={"min_similarity": "must be -1 to 1"},
        )
    if metadata is not None and not isinstance(metadata, dict):
        raise DomainError(
            "metadata must be a JSON object", fields={"metadata": "must be a JSON object"}
        )
    weights = []
    for name, value, default in (
        ("vector_weight", vector_weight, config["vector_weight"]),
        ("bm25_weight", bm25_weight, config["bm25_weight"]),
    ):
        value = default if value is None else value
        if not _number(value) or value < 0 or not math.isfinite(value):
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
