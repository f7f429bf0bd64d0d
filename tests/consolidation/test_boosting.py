"""The boosted trees of the claim judge: an interaction a linear model cannot form, the
same model from the same data, and plain data that survives JSON."""

import json

import numpy as np

from consolidation import boosting


def _data():
    # changed value (column 0) means conflict unless the subject's qualifier changed too
    # (column 1: another subject, new); neither is a merge; column 2 is noise.
    rng = np.random.default_rng(7)
    x = rng.integers(0, 2, size=(300, 3)).astype(float)
    y = np.where(x[:, 1] == 1, 2, np.where(x[:, 0] == 1, 1, 0))
    return x, y


def test_it_learns_which_signal_overrides_the_other():
    x, y = _data()
    model = boosting.fit(x, y, classes=3, trees=40, depth=2, rate=0.2)
    predicted = [int(np.argmax(boosting.scores(model, row))) for row in x]
    assert predicted == y.tolist()
    assert np.argmax(boosting.scores(model, np.array([1.0, 1.0, 0.0]))) == 2
    assert np.argmax(boosting.scores(model, np.array([1.0, 0.0, 1.0]))) == 1


def test_it_is_deterministic_and_plain_data():
    x, y = _data()
    first = boosting.fit(x, y, classes=3, trees=10, depth=3)
    again = json.loads(json.dumps(boosting.fit(x, y, classes=3, trees=10, depth=3)))
    assert first == again
    row = np.array([1.0, 0.0, 1.0])
    assert np.allclose(boosting.scores(first, row), boosting.scores(again, row))
