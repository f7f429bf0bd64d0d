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
    found = corpus.memory_ids_of(worker=worker, ids=ids)
    missing = [i for i in ids if i not in found]
    if missing:
        listed = ", ".join(map(str, missing))
        raise NotFoundError(
            f"{corpus.name} memor{'y' if len(missing) == 1 else 'ies'} not found: {listed}",
            fields={"memory_ids": f"not found: {listed}"},
        )
    return ids


def filters_sql(
    params: SearchParams, corpus: Corpus, alias: str = "c", *, current_postings: bool = False
) -> tuple[str, list]:
    """``AND ...`` conditions on the chunk alias, and their arguments. A temporal corpus
    (longterm) reads the versions valid at ``valid_at``, those overlapping ``time_range``,
    or else the current ones (``end_date IS NULL``, a partial index); and those at least
    ``confidence_threshold`` confident. ``current_postings``: the rows come from the
    current versions' BM25 postings already, so "current" needs no condition."""
    sql, args = "", []
    if params.memory_ids is not None:
        sql += f" AND {alias}.{corpus.memory_column} = ANY(%s)"
        args.append(list(params.memory_ids))
    if params.metadata:
        sql += f" AND {alias}.metadata @> %s::jsonb"
        args.append(json.dumps(params.metadata))
    if corpus.temporal:
        if params.valid_at is not None:
            sql += (
                f" AND {alias}.start_date <= %s"
                f" AND ({alias}.end_date IS NULL OR {alias}.end_date > %s)"
            )
            args += [params.valid_at, params.valid_at]
        elif params.time_range is not None:
            start, end = params.time_range
            sql += (
                f" AND {alias}.start_date <= %s"
                f" AND ({alias}.end_date IS NULL OR {alias}.end_date > %s)"
            )
            args += [end, start]
        elif not current_postings:
            sql += f" AND {alias}.end_date IS NULL"
        if params.confidence_threshold is not None:
            sql += f" AND {alias}.confidence >= %s"
            args.append(params.confidence_threshold)
    return sql, args
