"""Small gradient-boosted trees for the claim judge: multinomial deviance, shallow
regression trees on binned features, fitted by plain numpy and stored as plain data (JSON).
Deterministic: no sampling, ties go to the first feature and the lowest threshold.

The trees let the judge read the signals together — a replaced qualifier of the subject
outweighs a changed value ("v1 API limit 100" / "v2 API limit 300" is another subject), a
changed value counts only under one subject — which a linear model over the same signals
cannot form by itself.
"""

import numpy as np

MAX_BINS = 16


def _thresholds(column: np.ndarray) -> np.ndarray:
    """Candidate split points of one feature: between its distinct values, at most
    ``MAX_BINS`` of them (quantiles) for a continuous one."""
    values = np.unique(column)
    if len(values) > MAX_BINS:
        values = np.unique(np.quantile(column, np.linspace(0, 1, MAX_BINS + 1)))
    return (values[:-1] + values[1:]) / 2


def _tree(x, bins, thresholds, residual, hessian, *, depth: int, min_leaf: int, rate: float):
    """One regression tree on ``residual`` (Newton leaf values), as parallel lists: feature
    (-1 for a leaf), threshold, left, right, value."""
    nodes = {"feature": [], "threshold": [], "left": [], "right": [], "value": []}

    def leaf(index):
        h = hessian[index].sum()
        value = residual[index].sum() / h if h > 1e-12 else 0.0
        return rate * float(np.clip(value, -4.0, 4.0))

    def grow(index, level):
        at = len(nodes["feature"])
        for key in nodes:
            nodes[key].append(0)
        nodes["feature"][at], nodes["left"][at], nodes["right"][at] = -1, -1, -1
        nodes["value"][at] = round(leaf(index), 6)
        if level == depth or len(index) < 2 * min_leaf:
            return at
        r, n = residual[index], len(index)
        total = r.sum()
        best = (1e-9, None, None)
        for f, cuts in enumerate(thresholds):
            if not len(cuts):
                continue
            b = bins[index, f]
            sums = np.bincount(b, weights=r, minlength=len(cuts) + 1)[:-1].cumsum()
            counts = np.bincount(b, minlength=len(cuts) + 1)[:-1].cumsum()
            ok = (counts >= min_leaf) & (n - counts >= min_leaf)
            if not ok.any():
                continue
            left, right = counts.clip(1), (n - counts).clip(1)
            gain = sums**2 / left + (total - sums) ** 2 / right - total**2 / n
            gain[~ok] = -1.0
            cut = int(gain.argmax())
            if gain[cut] > best[0] + 1e-12:
                best = (float(gain[cut]), f, cut)
        if best[1] is None:
            return at
        f, cut = best[1], best[2]
        goes_left = bins[index, f] <= cut
        nodes["feature"][at] = f
        nodes["threshold"][at] = round(float(thresholds[f][cut]), 6)
        nodes["left"][at] = grow(index[goes_left], level + 1)
        nodes["right"][at] = grow(index[~goes_left], level + 1)
        return at

    grow(np.arange(len(x)), 0)
    return nodes


def fit(
    x: np.ndarray,
    y: np.ndarray,
    *,
    classes: int,
    trees: int = 200,
    depth: int = 3,
    rate: float = 0.05,
    min_leaf: int = 5,
) -> dict:
    """Boosted trees for ``classes`` labels (``y`` their indexes): ``{"base", "trees"}``,
    ``trees[round][class]`` one tree each."""
    thresholds = [_thresholds(x[:, f]) for f in range(x.shape[1])]
    bins = np.stack(
        [np.searchsorted(cuts, x[:, f], side="left") for f, cuts in enumerate(thresholds)],
        axis=1,
    )
    onehot = np.zeros((len(x), classes))
    onehot[np.arange(len(x)), y] = 1.0
    prior = onehot.mean(axis=0).clip(1e-6)
    base = np.log(prior) - np.log(prior).mean()
    scores = np.tile(base, (len(x), 1))
    rounds = []
    for _ in range(trees):
        exp = np.exp(scores - scores.max(axis=1, keepdims=True))
        probs = exp / exp.sum(axis=1, keepdims=True)
        this_round = []
        for k in range(classes):
            residual = onehot[:, k] - probs[:, k]
            hessian = probs[:, k] * (1 - probs[:, k]) * classes / (classes - 1)
            tree = _tree(
                x,
                bins,
                thresholds,
                residual,
                hessian,
                depth=depth,
                min_leaf=min_leaf,
                rate=rate,
            )
            scores[:, k] += predict_tree(tree, x)
            this_round.append(tree)
        rounds.append(this_round)
    return {"base": base.round(6).tolist(), "trees": rounds}


def predict_tree(tree: dict, x: np.ndarray) -> np.ndarray:
    """The tree's value for each row of ``x``."""
    feature, threshold = np.array(tree["feature"]), np.array(tree["threshold"])
    left, right = np.array(tree["left"]), np.array(tree["right"])
    node = np.zeros(len(x), dtype=int)
    rows = np.arange(len(x))
    while (inner := feature[node] >= 0).any():
        go_left = x[rows, feature[node].clip(0)] <= threshold[node]
        node = np.where(inner, np.where(go_left, left[node], right[node]), node)
    return np.array(tree["value"])[node]


def scores(model: dict, x: np.ndarray) -> np.ndarray:
    """Per-class scores (logits) of one row ``x``."""
    out = np.array(model["base"], dtype=float)
    for this_round in model["trees"]:
        for k, tree in enumerate(this_round):
            node = 0
            feature, threshold = tree["feature"], tree["threshold"]
            while feature[node] >= 0:
                node = (
                    tree["left"][node]
                    if x[feature[node]] <= threshold[node]
                    else tree["right"][node]
                )
            out[k] += tree["value"][node]
    return out
