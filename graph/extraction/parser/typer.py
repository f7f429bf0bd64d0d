"""Entity types learned from context: the last word on a name's type.

The rules give every name a type from the strongest cue they know (a gazetteer, a cue
word, the named-entity model's label). On a name no list knows ("Kuopio", "Liisa",
"Halvard Nygaard", "Cocolo") the named-entity model of the small pipeline often guesses
wrong, and so do the rules that trust it. The words around a name say more: "outside
Kuopio", "my aunt Liisa", "(owner: Halvard Nygaard)", "the Zalando office", "lunch at
Cocolo". This module reads those words as features of a multinomial logistic regression
(numpy, a few thousand sparse features, stored as JSON beside it) fitted on the labelled
development texts (``manage.py fit_entity_typer``), which predicts the type of each name
from:

- what the rules decided (type, where the name came from, whether a cue word typed it);
- the named-entity model's label of the span;
- the name itself: its words, the suffixes of its last word, its shape (case, digits,
  hyphens, dots), whether its first word is a given name, the whole a known place or
  technology;
- its context: the two words before and the two after, the word it hangs from in the
  parse and through which preposition ("lives ... in", "works ... at"), its role (subject,
  object, apposition, compound).

A name the rules typed by an identifier pattern or as a dialogue's speaker keeps its type.
Any other takes the model's type when the model gives it at least ``MARGIN`` more
probability than the type the rules chose; before the relationships are read only a type
``CONFIDENT`` more probable changes (the relation rules read types). Without a fitted
model, or with ``MEMORYHUB_ENTITY_TYPER=false``, nothing changes.
"""

import json
from functools import lru_cache
from pathlib import Path

import numpy as np
from django.conf import settings

from graph.vocabulary import ENTITY_TYPES
from memoryhub import lexicon

MODEL = Path(__file__).with_name("entity_types.json")
# Origins whose type is a pattern's, not a guess: never retyped.
FIXED_ORIGINS = {"speaker", "identifier", "handle"}
# How much more probable the model's type must be than the rules' to replace it. Chosen on
# the development texts with one file held out in turn (0 to 0.4 tried).
MARGIN = 0.1
# The margin of the first pass, before the relationships are read: only a type the model
# is sure of changes there (0.3, 0.5 and 0.7 tried with each dev file held out in turn:
# all within 0.005 of a single pass after the relationships).
CONFIDENT = 0.3
# L2 shrinkage and gradient steps of the fit (0.3/800 against 1/400: better on the file
# held out in turn, above all on the newest one).
L2 = 0.3
STEPS = 800


def _shape(text: str) -> str:
    if any(ch.isdigit() for ch in text):
        kind = "digit"
    elif text.isupper() and len(text) > 1:
        kind = "upper"
    elif text[:1].isupper():
        kind = "title" if text[1:].islower() or len(text) == 1 else "mixed"
    elif text.islower():
        kind = "lower"
    else:
        kind = "other"
    marks = "".join(mark for mark, ch in (("h", "-"), ("d", "."), ("u", "_")) if ch in text)
    return kind + marks


def _word(token) -> str:
    return token.lemma_.lower() if token.is_alpha else token.text.lower()


def features(doc, mention) -> list[str]:
    """The features of one mention (``rules.Mention``) in its parsed text."""
    span = doc.char_span(mention.start, mention.end, alignment_mode="expand")
    if span is None or not len(span):
        return []
    words = [t.lower_ for t in span]
    last, first = words[-1], words[0]
    out = [
        f"type={mention.type}",
        f"origin={mention.origin}",
        f"type|origin={mention.type}|{mention.origin}",
        f"cued={mention.cued}|{mention.type}",
        f"ntok={min(len(span), 4)}",
        f"shape={_shape(span.text)}",
        f"last={last}",
        f"first={first}",
        f"suf2={last[-2:]}",
        f"suf3={last[-3:]}",
        f"suf4={last[-4:]}",
        f"pre3={first[:3]}",
    ]
    out += [f"w={w}" for w in words]
    labels = {t.ent_type_ for t in span if t.ent_type_}
    label = labels.pop() if len(labels) == 1 else ("mixed" if labels else "none")
    out += [f"ent={label}", f"ent|type={label}|{mention.type}"]
    if first in lexicon.FIRST_NAMES:
        out.append(f"given_name|ntok={min(len(span), 3)}")
    lowered = span.text.lower()
    if lowered in lexicon.PLACES:
        out.append("place")
    if lowered in lexicon.TECHNOLOGIES:
        out.append("technology_name")
    start, end = span.start, span.end
    before = [doc[i] for i in range(max(start - 2, 0), start)]
    after = [doc[i] for i in range(end, min(end + 2, len(doc)))]
    if before:
        out.append(f"p1={_word(before[-1])}")
        if len(before) == 2:
            out.append(f"p2={_word(before[0])}|{_word(before[1])}")
    else:
        out.append("p1=^")
    if after:
        out.append(f"n1={_word(after[0])}")
        if len(after) == 2:
            out.append(f"n2={_word(after[0])}|{_word(after[1])}")
    else:
        out.append("n1=$")
    root = doc[mention.root] if 0 <= mention.root < len(doc) else span.root
    head = root.head
    out.append(f"dep={root.dep_}")
    out.append(f"head={_word(head)}|{root.dep_}")
    if root.dep_ == "pobj":
        out.append(f"prep={head.lower_}|{_word(head.head)}")
        out.append(f"prep={head.lower_}")
    if root.dep_ in {"compound", "poss"}:
        out.append(f"modifies={_word(head)}")
    return out


class Model:
    """A fitted regression: weights per feature and type, and a bias per type."""

    def __init__(self, data: dict):
        self.types = data["types"]
        self.bias = np.array(data["bias"], dtype=float)
        self.index = {name: i for i, name in enumerate(data["weights"])}
        self.weights = np.array(list(data["weights"].values()), dtype=float).reshape(
            len(self.index), len(self.types)
        )
        self.margin = data.get("margin", MARGIN)

    def probabilities(self, names: list[str]) -> dict[str, float]:
        rows = [self.index[name] for name in names if name in self.index]
        logits = self.bias + self.weights[rows].sum(axis=0)
        logits -= logits.max()
        exp = np.exp(logits)
        exp /= exp.sum()
        return dict(zip(self.types, exp.tolist(), strict=True))


def fit(
    rows: list[list[str]],
    labels: list[str],
    *,
    l2: float = L2,
    steps: int = STEPS,
    min_count: int = 2,
    margin: float = MARGIN,
) -> dict:
    """A multinomial logistic regression over binary features, by full-batch gradient
    descent with L2 shrinkage; features seen fewer than ``min_count`` times are dropped."""
    counts: dict[str, int] = {}
    for row in rows:
        for name in set(row):
            counts[name] = counts.get(name, 0) + 1
    vocabulary = sorted(name for name, n in counts.items() if n >= min_count)
    index = {name: i for i, name in enumerate(vocabulary)}
    types = [t for t in ENTITY_TYPES if t in set(labels)]
    x = np.zeros((len(rows), len(vocabulary)), dtype=np.float32)
    for r, row in enumerate(rows):
        for name in row:
            i = index.get(name)
            if i is not None:
                x[r, i] = 1.0
    y = np.zeros((len(rows), len(types)), dtype=np.float32)
    y[np.arange(len(rows)), [types.index(label) for label in labels]] = 1.0
    weights = np.zeros((len(vocabulary), len(types)), dtype=np.float32)
    bias = np.zeros(len(types), dtype=np.float32)
    rate, n = 1.0, float(len(rows))
    for _ in range(steps):
        logits = x @ weights + bias
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        error = p - y
        weights -= rate * ((x.T @ error) / n + l2 * weights / n)
        bias -= rate * error.mean(axis=0)
    kept = {
        name: [round(float(v), 4) for v in weights[i]]
        for name, i in index.items()
        if np.abs(weights[i]).max() >= 0.01
    }
    return {
        "types": types,
        "bias": [round(float(v), 4) for v in bias],
        "weights": kept,
        "examples": len(rows),
        "l2": l2,
        "steps": steps,
        "margin": margin,
    }


@lru_cache(maxsize=1)
def shipped() -> Model | None:
    """The fitted file beside this module, read once (``cache_clear`` after writing it)."""
    return Model(json.loads(MODEL.read_text())) if MODEL.exists() else None


def load_model() -> Model | None:
    """The shipped model; None when ``MEMORYHUB_ENTITY_TYPER`` is off or none is fitted."""
    if not settings.MEMORYHUB_GRAPH["entity_typer"]:
        return None
    return shipped()


def retype(
    doc,
    mentions,
    *,
    model=None,
    record: list | None = None,
    margin: float | None = None,
    seen: dict | None = None,
) -> None:
    """Give each mention the model's type where it is clearly (``Model.margin``, or
    ``margin``) more probable than the rules'. ``model``: a ``Model``, None for the shipped
    one, False for none. With ``record``, append ``(mention, features)`` instead (for
    fitting). ``seen`` keeps each mention's probabilities between passes over one text (they
    change only with the mention's type)."""
    if record is None:
        model = load_model() if model is None else model
        if not model:
            return
    for mention in mentions:
        if mention.origin in FIXED_ORIGINS:
            continue
        key = (id(mention), mention.type)
        if record is None and seen is not None and key in seen:
            probabilities = seen[key]
        else:
            names = features(doc, mention)
            if not names:
                continue
            if record is not None:
                record.append((mention, names))
                continue
            probabilities = model.probabilities(names)
            if seen is not None:
                seen[key] = probabilities
        best = max(probabilities, key=probabilities.get)
        if best != mention.type and probabilities[best] >= (
            probabilities.get(mention.type, 0.0) + (model.margin if margin is None else margin)
        ):
            mention.type = best
