"""The filters a search applies to its candidates: the memories they belong to and a
metadata containment. Checked against the worker first (a 404 naming unknown memories,
never a silently partial answer), then written into each ranked list's SQL."""

import json

from memoryhub.errors import DomainError, NotFoundError
from memoryhub.models import Worker
from tiers.search.corpus import Corpus
from tiers.search.params import SearchParams


def check_memory_ids(*, worker: Worker, corpus: Corpus, memory_ids) -> tuple[int, ...]:
    """Every id must be one of the worker's memories of the corpus."""
    if not isinstance(memory_ids, (list, tuple)) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in memory_ids
    ):
        raise DomainError(
            "memory_ids must be a list of integers", fields={"memory_ids": "must be integers"}
        )
    ids = tuple(dict.fromkeys(memory_ids))
    found = set(
        corpus.memory_model.objects.filter(worker=worker, pk__in=ids).values_list("pk", flat=True)
    )
    missing = [i for i in ids if i not in found]
    if missing:
        listed = ", ".join(map(str, missing))
        raise NotFoundError(
            f"{corpus.name} memor{'y' if len(missing) == 1 else 'ies'} not found: {listed}",
            fields={"memory_ids": f"not found: {listed}"},
        )
    return ids


def filters_sql(params: SearchParams, alias: str = "c") -> tuple[str, list]:
    """``AND ...`` conditions on the chunk alias, and their arguments."""
    sql, args = "", []
    if params.memory_ids is not None:
        sql += f" AND {alias}.memory_id = ANY(%s)"
        args.append(list(params.memory_ids))
    if params.metadata:
        sql += f" AND {alias}.metadata @> %s::jsonb"
        args.append(json.dumps(params.metadata))
    return sql, args
