"""The per-process caches a benchmark empties so that every text it times is new: parses,
claims and what is read of texts, name vectors, word groups, sentence checks, and a judge
embedder's vectors."""

from consolidation import checks
from consolidation.claims import claims, forget_spellings
from graph.extraction.parser.vectors import forget_name_vectors, forget_word_groups
from memoryhub.nlp import forget_parses


def forget_readings(judge_embedder=None) -> None:
    forget_parses()
    forget_name_vectors()
    forget_word_groups()
    claims.cache_clear()
    forget_spellings()
    checks.forget_sentences()
    if judge_embedder is not None:
        judge_embedder.cache_clear()
