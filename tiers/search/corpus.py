"""What a search runs over: one tier's chunks with their memories and BM25 postings.

The SQL of the search modules names only what a ``Corpus`` gives, so the longterm tier
becomes searchable by adding its corpus here."""

from dataclasses import dataclass

from django.db import models

from memoryhub.errors import DomainError
from tiers.models import ShorttermChunk, ShorttermMemory, Tier


@dataclass(frozen=True)
class Corpus:
    name: str
    tier: str  # the BM25 statistics' tier key
    chunk_model: type[models.Model]
    memory_model: type[models.Model]

    @property
    def chunks(self) -> str:
        return self.chunk_model._meta.db_table

    @property
    def memories(self) -> str:
        return self.memory_model._meta.db_table


SHORTTERM = Corpus(
    name="shortterm", tier=Tier.SHORTTERM, chunk_model=ShorttermChunk, memory_model=ShorttermMemory
)
CORPORA = {corpus.name: corpus for corpus in (SHORTTERM,)}


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
