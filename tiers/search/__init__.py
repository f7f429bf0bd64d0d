"""Search over a tier's chunks: the one entry point every caller uses (the API, the
retriever's tools, consolidation's candidates, benchmarks).

- ``search(worker=, query=, corpus=, mode=, limit=, filters=, with_graph=)`` → ``SearchHit``s
- ``search_queries(...)``: several queries, each within one memory
- ``nearest_chunks(...)``: the chunks most like a text, by exact cosine

The corpus (``corpus``) is a parameter; ``vector``, ``bm25``, ``fusion`` and ``filters``
are separate modules, ``index`` keeps the BM25 index beside the chunks.
"""

from tiers.search.corpus import CORPORA, SHORTTERM, Corpus, corpus_get
from tiers.search.engine import attach_graphs, search, search_queries
from tiers.search.hits import SearchHit
from tiers.search.params import MODES, SearchParams, search_params
from tiers.search.vector import nearest_chunks

__all__ = [
    "CORPORA",
    "MODES",
    "SHORTTERM",
    "Corpus",
    "SearchHit",
    "SearchParams",
    "attach_graphs",
    "corpus_get",
    "nearest_chunks",
    "search",
    "search_params",
    "search_queries",
]
