"""The deterministic judge of a section against a stored chunk: merge, conflict or new.

Its inputs are signals, none of which decides alone: the claim-level comparison
(``consolidation.claims``: alignment of claims, a changed or restated value, a negation,
opposite or technology swap, a replaced object under a single-valued attribute), the
sentence-level rule checks (``consolidation.checks``: number/date/version changed,
negation flip, value replaced, another subject), the graph's differences (a functional
relationship pointing elsewhere, an entity's type changed) and overlap, and the cosine
similarity of the two texts. A multinomial logistic regression, fitted on the development
pairs by ``manage.py fit_claim_judge`` and stored in ``claim_judge.json``, weighs them into
the probability of each label. Its evidence (the claims compared, the signals that fired,
the probabilities) goes with every conflict to the review pages.
"""

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from consolidation.checks import check_conflict
from consolidation.claims import FEATURES as CLAIM_FEATURES
from consolidation.claims import compare
from graph.differences import entity_containment, entity_overlap
from graph.extraction.base import Extraction

MODEL = Path(__file__).with_name("claim_judge.json")
LABELS = ("merge", "conflict", "new")
RULE_CODES = (
    "number_changed",
    "date_changed",
    "version_changed",
    "negation_flip",
    "value_replaced",
    "other_subject",
    "functional_relationship_changed",
    "opposite_relationship",
    "entity_type_changed",
    "low_entity_overlap",
)
FEATURES = (
    "similarity",
    "entity_overlap",
    "entity_containment",
    *CLAIM_FEATURES,
    *(f"rule_{code}" for code in RULE_CODES),
)


def pair_signals(
    *,
    incoming: str,
    existing: str,
    similarity: float,
    incoming_graph: Extraction,
    existing_graph: Extraction,
) -> dict:
    """``{"features": {...}, "evidence": [...], "rules": [reason dicts]}`` of one pair."""
    rules = check_conflict(
        incoming=incoming,
        existing=existing,
        incoming_graph=incoming_graph,
        existing_graph=existing_graph,
        similarity=similarity,
    )
    compared = compare(incoming, existing)
    codes = {r["code"] for r in rules}
    features = {
        "similarity": float(similarity),
        "entity_overlap": entity_overlap(incoming_graph, existing_graph),
        "entity_containment": entity_containment(incoming_graph, existing_graph),
        **compared["features"],
        **{f"rule_{code}": float(code in codes) for code in RULE_CODES},
    }
    return {"features": features, "evidence": compared["evidence"], "rules": rules}


def _matrix(rows: list[dict]) -> np.ndarray:
    return np.array([[float(row.get(name, 0.0)) for name in FEATURES] for row in rows])


def fit(rows: list[dict], labels: list[str], *, l2: float = 0.3, steps: int = 3000) -> dict:
    """A multinomial logistic regression over ``FEATURES`` (standardised), by gradient
    descent with L2 shrinkage. Returns the model as plain data."""
    x = _matrix(rows)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    y = np.zeros((len(x), len(LABELS)))
    y[np.arange(len(x)), [LABELS.index(label) for label in labels]] = 1.0
    weights = np.zeros((z.shape[1], len(LABELS)))
    rate = 0.5
    for _ in range(steps):
        logits = z @ weights
        logits -= logits.max(axis=1, keepdims=True)
        probabilities = np.exp(logits)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        gradient = z.T @ (probabilities - y) / len(x)
        gradient[:-1] += l2 * weights[:-1] / len(x)
        weights -= rate * gradient
    return {
        "features": list(FEATURES),
        "labels": list(LABELS),
        "mean": mean.round(6).tolist(),
        "scale": scale.round(6).tolist(),
        "weights": weights.round(6).tolist(),
        "l2": l2,
        "pairs": len(rows),
    }


def save(model: dict) -> None:
    MODEL.write_text(json.dumps(model, indent=1) + "\n")
    load_model.cache_clear()


@lru_cache(maxsize=1)
def load_model() -> dict | None:
    if not MODEL.exists():
        return None
    model = json.loads(MODEL.read_text())
    return model if model.get("features") == list(FEATURES) else None


def probabilities(features: dict, model: dict | None = None) -> dict[str, float]:
    model = model or load_model()
    if model is None:
        raise RuntimeError(f"no fitted judge in {MODEL.name}: run manage.py fit_claim_judge")
    x = np.array([float(features.get(name, 0.0)) for name in model["features"]])
    z = np.append((x - np.array(model["mean"])) / np.array(model["scale"]), 1.0)
    logits = z @ np.array(model["weights"])
    logits -= logits.max()
    exp = np.exp(logits)
    return {
        label: round(float(p), 4) for label, p in zip(model["labels"], exp / exp.sum(), strict=True)
    }


def judge(signals: dict, model: dict | None = None) -> dict:
    """The label and its probabilities for a pair's signals."""
    probs = probabilities(signals["features"], model)
    label = max(probs, key=probs.get)
    return {"label": label, "probabilities": probs}
