"""A search's parameters, validated once: each problem is a DomainError naming its field."""

import math
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

from memoryhub.errors import DomainError
from memoryhub.validation import moment, moment_range

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
    # Hybrid: the best hits lend neighbour_weight × their fused score (× neighbour_decay
    # per place beyond the first) to the chunks up to `neighbours` places from them in
    # their memory (0: off).
    neighbours: int = 0
    neighbour_weight: float = 0.0
    neighbour_decay: float = 0.5
    # Hybrid: chunks said by a speaker the query names score (1 + speaker_weight) times
    # their fused score (tiers.search.speakers; 0: off).
    speaker_weight: float = 0.0
    # Longterm (temporal corpora) only: the versions valid at a time, or overlapping a
    # range; none of the two = the current versions. And a floor on their confidence.
    valid_at: datetime | None = None
    time_range: tuple[datetime, datetime] | None = None
    confidence_threshold: float | None = None


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
    neighbours=None,
    neighbour_weight=None,
    neighbour_decay=None,
    speaker_weight=None,
    valid_at=None,
    time_range=None,
    confidence_threshold=None,
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
    neighbours = config["neighbours"] if neighbours is None else neighbours
    if not isinstance(neighbours, int) or isinstance(neighbours, bool) or not 0 <= neighbours <= 5:
        raise DomainError(
            "neighbours must be an integer from 0 to 5", fields={"neighbours": "must be 0 to 5"}
        )
    weights = []
    for name, value, default in (
        ("vector_weight", vector_weight, config["vector_weight"]),
        ("bm25_weight", bm25_weight, config["bm25_weight"]),
        ("neighbour_weight", neighbour_weight, config["neighbour_weight"]),
        ("speaker_weight", speaker_weight, config["speaker_weight"]),
    ):
        value = default if value is None else value
        if not _number(value) or value < 0 or not math.isfinite(value):
            raise DomainError(f"{name} must be a number ≥ 0", fields={name: "must be a number ≥ 0"})
        weights.append(float(value))
    neighbour_decay = config["neighbour_decay"] if neighbour_decay is None else neighbour_decay
    if not _number(neighbour_decay) or not 0.0 <= neighbour_decay <= 1.0:
        raise DomainError(
            "neighbour_decay must be a number from 0 to 1",
            fields={"neighbour_decay": "must be 0 to 1"},
        )
    candidates = max(limit, config["candidates"] if candidates is None else candidates)
    valid_at = None if valid_at is None else moment(valid_at, "valid_at")
    time_range = None if time_range is None else moment_range(time_range, "time_range")
    if valid_at is not None and time_range is not None:
        raise DomainError(
            "give valid_at or time_range, not both",
            fields={"time_range": "not with valid_at"},
        )
    if confidence_threshold is not None and (
        not _number(confidence_threshold) or not 0.0 <= confidence_threshold <= 1.0
    ):
        raise DomainError(
            "confidence_threshold must be a number from 0 to 1",
            fields={"confidence_threshold": "must be 0 to 1"},
        )
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
        neighbours=neighbours,
        neighbour_weight=weights[2],
        neighbour_decay=float(neighbour_decay),
        speaker_weight=weights[3],
        valid_at=valid_at,
        time_range=time_range,
        confidence_threshold=None if confidence_threshold is None else float(confidence_threshold),
    )
