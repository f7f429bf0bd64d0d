"""A multinomial logistic regression over sparse binary features, in plain numpy.

The parser's two learned parts use it: the entity typer (``typer``: a name's type from
its words and context) and the relation linker (``linker``: the relationship between two
names from the words that join them). Each example is a list of feature names; a fitted
model is plain data (a class list, a bias per class and a weight row per kept feature)
that is stored as JSON beside the module that uses it, each feature's weights by class
(only those of some size).

The fit is full-batch gradient descent with L2 shrinkage on the mean log-loss; the
examples are held as index arrays (row → features and feature → rows), so its cost grows
with the number of features that fire, not with rows × vocabulary.
"""

from collections.abc import Sequence

import numpy as np

# Weights smaller than this are not stored (a few per cent of the largest ones: the
# predictions on the development texts do not change).
KEPT = 0.005


def _probabilities(classes, logits: np.ndarray) -> dict[str, float]:
    logits = logits - logits.max()
    exp = np.exp(logits)
    exp /= exp.sum()
    return dict(zip(classes, exp.tolist(), strict=True))


def _descend(
    labels, classes, dimensions: int, forward, backward, *, l2, steps, rate, accelerated=False
):
    """Full-batch gradient descent on the mean log-loss with L2 shrinkage: ``forward(weights)``
    gives each example's logits before the bias, ``backward(error)`` the weights' gradient
    summed over the examples. With ``accelerated``, Nesterov's momentum: the same optimum
    in far fewer steps (plain descent stops short of it in a few hundred). Returns
    ``(weights, bias)``."""
    n, k = len(labels), len(classes)
    y = np.zeros((n, k))
    y[np.arange(n), [classes.index(label) for label in labels]] = 1.0
    weights = np.zeros((dimensions, k))
    bias = np.zeros(k)
    # Nesterov's momentum (FISTA's (t - 1) / (t + 2)): the gradient at a look-ahead point.
    ahead_w, ahead_b = weights, bias
    for t in range(1, steps + 1):
        at_w, at_b = (ahead_w, ahead_b) if accelerated else (weights, bias)
        logits = forward(at_w) + at_b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        error = p - y
        new_w = at_w - rate * (backward(error) / n + l2 * at_w / n)
        new_b = at_b - rate * error.mean(axis=0)
        if accelerated:
            mu = (t - 1) / (t + 2)
            ahead_w = new_w + mu * (new_w - weights)
            ahead_b = new_b + mu * (new_b - bias)
        weights, bias = new_w, new_b
    return weights, bias


class Model:
    """A fitted regression: ``classes``, ``bias`` per class and ``weights`` per feature."""

    def __init__(self, data: dict, *, classes_key: str = "classes"):
        self.classes = data[classes_key]
        self.bias = np.array(data["bias"], dtype=float)
        self.index = {name: i for i, name in enumerate(data["weights"])}
        self.weights = np.zeros((len(self.index), len(self.classes)))
        for i, row in enumerate(data["weights"].values()):
            if isinstance(row, dict):  # sparse: {class: weight}
                for label, weight in row.items():
                    self.weights[i, self.classes.index(label)] = weight
            else:
                self.weights[i] = row

    def logits(self, names: Sequence[str]) -> np.ndarray:
        rows = [self.index[name] for name in names if name in self.index]
        return self.bias + self.weights[rows].sum(axis=0)

    def probabilities(self, names: Sequence[str]) -> dict[str, float]:
        return _probabilities(self.classes, self.logits(names))


def fit(
    rows: Sequence[Sequence[str]],
    labels: Sequence[str],
    classes: Sequence[str],
    *,
    l2: float,
    steps: int,
    min_count: int = 2,
    rate: float = 1.0,
    accelerated: bool = False,
) -> dict:
    """Weights for ``classes`` (those absent from ``labels`` are dropped); features seen in
    fewer than ``min_count`` examples are dropped, and so are weights under ``KEPT``.
    Returns ``{"classes", "bias", "weights": {feature: {class: weight}}}``."""
    counts: dict[str, int] = {}
    for row in rows:
        for name in set(row):
            counts[name] = counts.get(name, 0) + 1
    vocabulary = sorted(name for name, n in counts.items() if n >= min_count)
    index = {name: i for i, name in enumerate(vocabulary)}
    present = set(labels)
    classes = [c for c in classes if c in present]
    # Row → features (each feature once per row), and the same pairs sorted by feature.
    pair_rows, pair_features = [], []
    for r, row in enumerate(rows):
        for i in sorted({index[name] for name in row if name in index}):
            pair_rows.append(r)
            pair_features.append(i)
    pair_rows = np.array(pair_rows, dtype=np.int64)
    pair_features = np.array(pair_features, dtype=np.int64)
    row_starts = np.searchsorted(pair_rows, np.arange(len(rows)))
    filled = np.bincount(pair_rows, minlength=len(rows)) > 0
    by_feature = np.argsort(pair_features, kind="stable")
    feature_starts = np.searchsorted(pair_features[by_feature], np.arange(len(vocabulary)))
    n, k = len(rows), len(classes)

    def forward(weights):
        logits = np.zeros((n, k))
        if len(pair_rows):  # reduceat repeats the next row's sum for an empty row: masked
            logits[filled] = np.add.reduceat(weights[pair_features], row_starts[filled], axis=0)
        return logits

    def backward(error):
        if not len(by_feature):
            return np.zeros((len(vocabulary), k))
        # Every feature in the vocabulary occurs at least once: no empty group.
        return np.add.reduceat(error[pair_rows[by_feature]], feature_starts, axis=0)

    weights, bias = _descend(
        labels,
        classes,
        len(vocabulary),
        forward,
        backward,
        l2=l2,
        steps=steps,
        rate=rate,
        accelerated=accelerated,
    )
    kept = {}
    for name, i in index.items():
        row = {
            c: round(float(w), 4)
            for c, w in zip(classes, weights[i], strict=True)
            if abs(w) >= KEPT
        }
        if row:
            kept[name] = row
    return {"classes": classes, "bias": [round(float(v), 4) for v in bias], "weights": kept}


class DenseModel:
    """A fitted regression over a dense vector: ``classes``, ``bias``, ``weights`` (one
    row per dimension), the ``scale`` the vectors are multiplied by and, when fitted with
    one, the ``center`` they are moved from (then made unit length again) first."""

    def __init__(self, data: dict):
        self.classes = data["classes"]
        self.bias = np.array(data["bias"], dtype=float)
        self.weights = np.array(data["weights"], dtype=float)
        self.scale = float(data.get("scale", 1.0))
        self.center = np.array(data["center"], dtype=float) if data.get("center") else None

    def probabilities(self, vector: np.ndarray) -> dict[str, float]:
        vector = np.asarray(vector, dtype=float)
        if self.center is not None:
            vector = centred(vector[None, :], self.center)[0]
        return _probabilities(self.classes, self.bias + (vector * self.scale) @ self.weights)


def centred(vectors: np.ndarray, center: np.ndarray) -> np.ndarray:
    """The rows of ``vectors`` moved from ``center`` and made unit length again: an
    embedder whose cosines sit in a narrow high band (multilingual-e5) spreads out."""
    moved = np.asarray(vectors, dtype=float) - center
    return moved / (np.linalg.norm(moved, axis=1, keepdims=True) + 1e-9)


def fit_dense(
    vectors: np.ndarray,
    labels: Sequence[str],
    classes: Sequence[str],
    *,
    l2: float,
    steps: int,
    scale: float = 1.0,
    rate: float = 2.0,
    center: bool = False,
) -> dict:
    """The dense counterpart of ``fit``: ``{"classes", "bias", "weights", "scale"}``, and
    with ``center`` the mean of the vectors, which they are moved from first
    (``centred``)."""
    present = set(labels)
    classes = [c for c in classes if c in present]
    x = np.asarray(vectors, dtype=float)
    mean = x.mean(axis=0) if center else None
    if mean is not None:
        x = centred(x, mean)
    x = x * scale
    weights, bias = _descend(
        labels,
        classes,
        x.shape[1],
        lambda w: x @ w,
        lambda error: x.T @ error,
        l2=l2,
        steps=steps,
        rate=rate,
    )
    return {
        "classes": classes,
        "bias": [round(float(v), 4) for v in bias],
        "weights": [[round(float(v), 4) for v in row] for row in weights],
        "scale": scale,
        **({"center": [round(float(v), 5) for v in mean]} if mean is not None else {}),
    }
