"""Reading labelled pairs for the calibration and fitting commands: each pair is an existing
chunk and an incoming section labelled merge / conflict / new, with its kind. The pair's
cosine similarity comes from the configured embedder and its graphs from the configured
extractor, as in a real consolidation run."""

import json
from pathlib import Path

import numpy as np

LABELS = ("merge", "conflict", "new")


class PairsError(ValueError):
    """A pairs file that is missing or malformed."""


def load_pairs(path: Path) -> list[dict]:
    path = Path(path)
    if not path.is_file():
        raise PairsError(f"no such file: {path}")
    pairs = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            pair = json.loads(line)
        except json.JSONDecodeError as exc:
            raise PairsError(f"{path}:{number}: not JSON ({exc.msg})") from exc
        missing = {"id", "kind", "label", "existing", "incoming"} - set(pair)
        if missing or pair["label"] not in LABELS:
            raise PairsError(
                f"{path}:{number}: needs id, kind, label (merge|conflict|new), existing, incoming"
            )
        pairs.append(pair)
    return pairs


def prepare_pairs(pairs: list[dict], *, embedder, extractor, on_pair=None) -> list[dict]:
    """Each pair with its ``similarity`` and both graphs (``incoming_graph``,
    ``existing_graph``), embedded and extracted in batches: the stored text's graph as it
    was stored (``extract``), the incoming one's as consolidation reads it to decide
    (``extract_quick``)."""
    prepared = []
    for start in range(0, len(pairs), 32):
        batch = pairs[start : start + 32]
        texts = [t for pair in batch for t in (pair["existing"], pair["incoming"])]
        vectors = embedder.embed_documents(texts)
        existing_graphs = extractor.extract_many([pair["existing"] for pair in batch])
        incoming_graphs = extractor.extract_quick_many([pair["incoming"] for pair in batch])
        for index, pair in enumerate(batch):
            existing_vector, incoming_vector = vectors[2 * index], vectors[2 * index + 1]
            prepared.append(
                {
                    "pair": pair,
                    "similarity": float(np.dot(existing_vector, incoming_vector)),
                    "existing_graph": existing_graphs[index],
                    "incoming_graph": incoming_graphs[index],
                }
            )
            if on_pair:
                on_pair()
    return prepared


def score(labels: list[str], predicted: list[str]) -> dict:
    """Conflict precision/recall/F1 and 3-way accuracy."""
    pairs = list(zip(labels, predicted, strict=True))
    tp = sum(t == p == "conflict" for t, p in pairs)
    fp = sum(t != "conflict" and p == "conflict" for t, p in pairs)
    fn = sum(t == "conflict" and p != "conflict" for t, p in pairs)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    accuracy = sum(t == p for t, p in pairs) / len(pairs) if pairs else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "accuracy": accuracy}


def confusion(labels: list[str], predicted: list[str]) -> dict[str, dict[str, int]]:
    """``{label: {decided: count}}`` over ``LABELS``."""
    matrix = {t: dict.fromkeys(LABELS, 0) for t in LABELS}
    for truth, guess in zip(labels, predicted, strict=True):
        matrix[truth][guess] += 1
    return matrix


def per_kind(pairs: list[dict], predicted: list[str]) -> dict[str, tuple[int, int]]:
    """``{kind: (decided right, pairs)}``, kinds in alphabetical order."""
    kinds: dict[str, list[bool]] = {}
    for pair, guess in zip(pairs, predicted, strict=True):
        kinds.setdefault(pair["kind"], []).append(pair["label"] == guess)
    return {kind: (sum(right), len(right)) for kind, right in sorted(kinds.items())}


def per_kind_line(pairs: list[dict], predicted: list[str]) -> str:
    return "  per kind: " + ", ".join(
        f"{kind} {right}/{total}" for kind, (right, total) in per_kind(pairs, predicted).items()
    )
