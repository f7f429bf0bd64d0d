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
from django.conf import settings

from consolidation.checks import check_conflict
from consolidation.claims import FEATURES as CLAIM_FEATURES
from consolidation.claims import compare
from graph.differences import entity_containment, entity_overlap
from graph.extraction.base import Extraction
from graph.vocabulary import normalize_name

MODEL = Path(__file__).with_name("claim_judge.json")
ANY_EMBEDDER = "any"
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
SWAP_TYPES = ("person", "organization", "location", "technology", "component")
FEATURES = (
    "similarity",
    "entity_overlap",
    "entity_containment",
    "entities_dropped",
    *(f"swap_{kind}" for kind in SWAP_TYPES),
    *CLAIM_FEATURES,
    *(f"rule_{code}" for code in RULE_CODES),
)


# Cosines of another embedder sit in another band: without the one fitted on, the judge
# leaves the cosine out.
NO_SIMILARITY = tuple(name for name in FEATURES if name != "similarity")


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
    swaps, dropped = _entity_swaps(incoming, existing, incoming_graph, existing_graph)
    for kind, (gone, added) in swaps.items():
        compared["evidence"].append(
            {
                "signal": f"swap_{kind}",
                "detail": f"{', '.join(gone)} → {', '.join(added)}",
                "incoming": None,
                "existing": None,
                "alignment": None,
            }
        )
    features = {
        "similarity": float(similarity),
        "entity_overlap": entity_overlap(incoming_graph, existing_graph),
        "entity_containment": entity_containment(incoming_graph, existing_graph),
        "entities_dropped": dropped,
        **{f"swap_{kind}": float(kind in swaps) for kind in SWAP_TYPES},
        **compared["features"],
        **{f"rule_{code}": float(code in codes) for code in RULE_CODES},
    }
    return {"features": features, "evidence": compared["evidence"], "rules": rules}


def _entity_swaps(incoming: str, existing: str, incoming_graph, existing_graph):
    """Per entity type, the names the existing text states and the incoming one does not,
    while the incoming one states others of that type: a value replaced (a new owner,
    city, employer, database). Also the share of existing names the incoming text drops."""
    new_text, old_text = normalize_name(incoming), normalize_name(existing)
    old = {(normalize_name(e.name), e.type) for e in existing_graph.entities}
    new = {(normalize_name(e.name), e.type) for e in incoming_graph.entities}
    swaps = {}
    for kind in SWAP_TYPES:
        gone = sorted(n for n, t in old if t == kind and n and n not in new_text)
        added = sorted(n for n, t in new if t == kind and n and n not in old_text)
        if gone and added:
            swaps[kind] = (gone, added)
    names = {n for n, _ in old if n}
    dropped = sum(1 for n in names if n not in new_text) / len(names) if names else 0.0
    return swaps, dropped


def _matrix(rows: list[dict], features: tuple = FEATURES) -> np.ndarray:
    return np.array([[float(row.get(name, 0.0)) for name in features] for row in rows])


def embedder_signature() -> str:
    """Which embedder's cosines the similarity feature holds: its provider and model."""
    config = settings.MEMORYHUB_EMBEDDINGS
    model = config.get("model", "") if config["provider"] == "openai" else ""
    return f"{config['provider']}:{model}:{config['dimension']}"


def fit_both(rows: list[dict], labels: list[str], *, l2: float = 0.3) -> dict:
    """The judge file: a model for the configured embedder (its cosine is a feature) and
    one for any other (no cosine), used when the embedder differs from the one fitted on."""
    return {
        "models": {
            embedder_signature(): fit(rows, labels, l2=l2),
            ANY_EMBEDDER: fit(rows, labels, l2=l2, features=NO_SIMILARITY),
        }
    }


def fit(
    rows: list[dict],
    labels: list[str],
    *,
    l2: float = 0.3,
    steps: int = 3000,
    features: tuple = FEATURES,
) -> dict:
    """A multinomial logistic regression over ``features`` (standardised), by gradient
    descent with L2 shrinkage. Returns the model as plain data."""
    x = _matrix(rows, features)
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
        "features": list(features),
        "labels": list(LABELS),
        "mean": mean.round(6).tolist(),
        "scale": scale.round(6).tolist(),
        "weights": weights.round(6).tolist(),
        "l2": l2,
        "pairs": len(rows),
    }


def save(judge_file: dict) -> None:
    MODEL.write_text(json.dumps(judge_file, indent=1) + "\n")
    _judge_file.cache_clear()


@lru_cache(maxsize=1)
def _judge_file() -> dict:
    return json.loads(MODEL.read_text()) if MODEL.exists() else {"models": {}}


def load_model() -> dict | None:
    """The model for the configured embedder, else the one without the cosine; None when
    none fits the features of this version."""
    models = _judge_file().get("models", {})
    model = models.get(embedder_signature()) or models.get(ANY_EMBEDDER)
    if model is None or not set(model["features"]) <= set(FEATURES):
        return None
    return model


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
