"""What a search runs over: one tier's chunks with their memories and BM25 postings.

The SQL of the search modules names only what a ``Corpus`` gives, so the longterm tier
becomes searchable by adding its corpus here."""

from dataclasses import dataclass

from django.db import models

from memoryhub.errors import DomainError
from tiers.models import LongtermChunk, ShorttermChunk, ShorttermMemory, Tier

LONGTERM_ENDED = "longterm_ended"  # the BM25 key of ended longterm versions


@dataclass(frozen=True)
class Corpus:
    name: str
    tier: str  # the BM25 statistics' tier key
    chunk_model: type[models.Model]
    memory_model: type[models.Model]
    # The chunk's column naming the memory it belongs to (longterm: its source).
    memory_column: str = "memory_id"
    # Longterm: versions with start_date/end_date and a confidence; searches read the
    # current versions unless asked for another time.
    temporal: bool = False
    # Temporal corpora keep the BM25 postings of ended versions under a tier key of their
    # own, so that a search of the current versions reads only theirs (no join to the
    # versions, no statistics of the past); a search of another time reads both keys.
    ended_tier: str | None = None

    @property
    def bm25_tier_keys(self) -> list[str]:
        return [self.tier] + ([self.ended_tier] if self.ended_tier else [])

    def bm25_tiers(self, params) -> list[str]:
        """The BM25 tier keys a search reads: the current versions' alone, unless the
        search is about another time."""
        if self.temporal and (params.valid_at is not None or params.time_range is not None):
            return self.bm25_tier_keys
        return [self.tier]

    @property
    def chunks(self) -> str:
        return self.chunk_model._meta.db_table

    @property
    def memories(self) -> str:
        return self.memory_model._meta.db_table

    def from_sql(self, alias: str = "c") -> str:
        """The chunks with their memory's title as ``title``: ``FROM`` … for a hit's row."""
        if self.temporal:  # the versions keep their source's title (it may be gone)
            return f"{self.chunks} {alias}"
        return f"{self.chunks} {alias} JOIN {self.memories} m ON m.id = {alias}.memory_id"

    def title_sql(self, alias: str = "c") -> str:
        return f"{alias}.title" if self.temporal else "m.title"

    def memory_ids_of(self, *, worker, ids) -> set[int]:
        """Which of ``ids`` name memories of the worker in this corpus."""
        if self.temporal:
            return set(
                self.chunk_model.objects.filter(worker=worker, shortterm_memory_id__in=ids)
                .values_list("shortterm_memory_id", flat=True)
                .distinct()
            )
        return set(
            self.memory_model.objects.filter(worker=worker, pk__in=ids).values_list("pk", flat=True)
        )


SHORTTERM = Corpus(
    name="shortterm", tier=Tier.SHORTTERM, chunk_model=ShorttermChunk, memory_model=ShorttermMemory
)
LONGTERM = Corpus(
    name="longterm",
    tier=Tier.LONGTERM,
    chunk_model=LongtermChunk,
    memory_model=ShorttermMemory,
    memory_column="shortterm_memory_id",
    temporal=True,
    ended_tier=LONGTERM_ENDED,
)
CORPORA = {corpus.name: corpus for corpus in (SHORTTERM, LONGTERM)}


def corpus_get(name) -> Corpus:
    if isinstance(name, Corpus):
        return name
    try:
        return CORPORA[name]
    except (KeyError, TypeError) as exc:
        raise DomainError(
            f"corpus must be one of {', '.join(CORPORA)}",
            fields={"corpus": f"not one of {', '.join(CORPORA)}"},
        ) from exc
