"""Lower-case things learned from context: the thing finder.

The rules take a common noun phrase as an entity only where a cue says it names something:
a cue noun ("billing service", "data team"), or the object of a verb of liking or using
("likes dark mode", "drinks oat milk"). The writers label far more lower-case things than
that: the dishes of a potluck list ("- Meera: biryani + raita"), what one's husband cooks
("his stamppot is unbeatable"), a sport, an instrument, a crop, a field of study. On a file
no rule was written beside, four names in ten that the extractor missed were such things
(dev52: 50 of 131; dev53: most of its 88 misses).

The finder reads every free lower-case noun phrase the rules left (each twice: its nouns
alone, and with the adjectives before them — "roasted veg", "late blight") as features of
a regression (``regression``, stored as ``things.json`` beside this module and fitted on
the labelled development texts by ``manage.py fit_thing_finder``) over none and the entity
types:

- the head noun and the words before it, whether the head is an English word (a dish or a
  crop from another language seldom is), and whether it is a known food, animal or
  instrument, a generic word or a word that is never a name;
- where the phrase hangs: its role, the word it hangs from (through a preposition: "care
  about football", "cooking with tamarind") and that word's group
  (``vectors.word_groups``), the head's own group, its determiner, the words beside it;
- the line it stands on: a list item, after a key and a colon, a heading;
- the names it is listed with ("jollof, suya and chin chin": the type of a name the rules
  found beside it in the list).

A phrase the finder finds ``ADD`` probable to be a name is added with its likeliest type
(the typer may retype it later), before the relationships are read, so that the rules and
the linker relate it ("Femke LIKES korfball"). Without a fitted model, or with
``MEMORYHUB_THING_FINDER=false``, nothing changes.
"""

import json
import re
from functools import lru_cache
from pathlib import Path

import numpy as np
from django.conf import settings

from graph.extraction.parser import regression, typer
from graph.extraction.parser.vectors import name_vectors, word_groups
from graph.extraction.parser.words import ANIMALS, FOODS, GENERIC_HEADS, INSTRUMENTS
from graph.vocabulary import ENTITY_TYPES
from memoryhub import lexicon
from memoryhub.nlp import english_word

MODEL = Path(__file__).with_name("things.json")
NONE = "none"
# How probable a phrase must be to be added. Fitted on every development file but the four
# newest and scored on those (2026-12-07): entity F1 0.8565 without the finder, 0.8602 at
# 0.4, 0.8601 at 0.5, 0.8586 at 0.6; relationship F1 0.6109 → 0.6103 at 0.4 and 0.5.
ADD = 0.5
L2 = 1.0
STEPS = 400
# What a phrase's words may be dropped for: determiners, possessives, numbers, pronouns.
DROPPED_DEPS = {"det", "poss", "predet", "case", "nummod", "punct", "neg", "quantmod"}
DROPPED_POS = {"PRON", "NUM", "DET", "PUNCT", "ADV", "CCONJ", "SYM", "X", "INTJ"}
LIST_ITEM = re.compile(r"\s*(?:[-*•+]|\d{1,2}[.)])\s")
TURN_LINE = re.compile(r"^[\w .'@-]{1,25}:\s")


def _word(token) -> str:
    return token.lemma_.lower() if token.is_alpha else token.text.lower()


def candidates(reader) -> list[tuple[str, list]]:
    """``(variant, tokens)`` of every free lower-case noun phrase of ``reader``'s text:
    its nouns ("A"), and its nouns with the adjectives before them ("B") when that differs."""
    out = []
    source = reader.source
    for chunk in reader.doc.noun_chunks:
        root = chunk.root
        if root.pos_ not in {"NOUN", "PROPN"} or not root.is_alpha:
            continue
        kept = [
            t
            for t in chunk
            if t.i <= root.i and t.dep_ not in DROPPED_DEPS and t.pos_ not in DROPPED_POS
        ]
        run: list = []  # the words that end at the head without a gap
        for token in reversed(kept):
            if run and token.i != run[0].i - 1:
                break
            run.insert(0, token)
        nouns: list = []
        for token in reversed(run):
            if token.pos_ not in {"NOUN", "PROPN"} or not (
                token.i == root.i or token.dep_ == "compound"
            ):
                break
            nouns.insert(0, token)
        variants = [("A", nouns)] if nouns else []
        if len(run) > len(nouns):
            variants.append(("B", run))
        for variant, tokens in variants:
            written = source[tokens[0].idx : tokens[-1].idx + len(tokens[-1])]
            if not written or written != written.lower() or not reader._free(tokens):
                continue
            out.append((variant, tokens))
    return out


def features(reader, variant: str, tokens: list, groups: dict[str, str]) -> list[str]:
    """The features of one candidate phrase (``candidates``); ``groups``: the word groups of
    the words the phrases of the text hang from (``group_words``)."""
    doc, source = reader.doc, reader.source
    root = tokens[-1]
    head = _word(root)
    out = [
        f"v={variant}",
        f"h={head}",
        f"n={min(len(tokens), 4)}",
        f"dep={root.dep_}",
        f"tag={root.tag_}",
        f"eng={english_word(head)}",
        f"hg={groups.get(head, '?')}",
    ]
    out += [f"m={_word(t)}" for t in tokens[:-1]]
    out += [f"mpos={t.pos_}" for t in tokens[:-1]]
    for flag, words in (
        ("food", FOODS),
        ("animal", ANIMALS),
        ("instrument", INSTRUMENTS),
        ("generic", GENERIC_HEADS),
        ("never", lexicon.NEVER_NAMES),
    ):
        if head in words:
            out.append(flag)
    if head in lexicon.TECHNOLOGIES or " ".join(t.lower_ for t in tokens) in lexicon.TECHNOLOGIES:
        out.append("tech")
    determiners = [c.lower_ for c in root.children if c.dep_ in {"det", "poss"}]
    out.append(f"det={determiners[0] if determiners else '-'}")
    above = root.head
    out.append(f"hd={_word(above)}|{root.dep_}")
    out.append(f"hdg={groups.get(_word(above), '?')}|{root.dep_}")
    if root.dep_ == "pobj":
        out += [f"prep={above.lower_}|{_word(above.head)}", f"prep={above.lower_}"]
        out.append(f"pg={groups.get(_word(above.head), '?')}|{above.lower_}")
    if root.dep_ == "conj":
        out.append(f"conjhd={_word(above.head)}|{above.dep_}")
    listed = {reader.by_token[t.i].type for t in _listed_with(root) if t.i in reader.by_token}
    out += [f"listed={kind}" for kind in sorted(listed)]
    line_start = source.rfind("\n", 0, tokens[0].idx) + 1
    line_end = source.find("\n", tokens[0].idx)
    line = source[line_start : len(source) if line_end < 0 else line_end]
    before = source[line_start : tokens[0].idx]
    if LIST_ITEM.match(line):
        out.append("item")
    if ":" in before:
        out.append("after_colon")
    if not before.strip(" -*•+#>"):
        out.append("line_start")
    if line.lstrip().startswith("#"):
        out.append("heading")
    if TURN_LINE.match(line):
        out.append("turn_line")
    previous = doc[tokens[0].i - 1] if tokens[0].i > 0 else None
    following = doc[root.i + 1] if root.i + 1 < len(doc) else None
    out.append(f"p1={_word(previous) if previous is not None else '^'}")
    out.append(f"n1={_word(following) if following is not None else '$'}")
    out.append(f"plural={root.tag_ == 'NNS'}")
    return out


def _listed_with(token) -> list:
    """The heads listed with ``token`` ("jollof, suya and chin chin")."""
    first = token
    while first.dep_ == "conj" and first.head.i != first.i:
        first = first.head
    listed = [first]
    frontier = [first]
    while frontier:
        current = frontier.pop()
        for child in current.children:
            if child.dep_ == "conj":
                listed.append(child)
                frontier.append(child)
    return [t for t in listed if t.i != token.i]


def group_words(found: list[tuple[str, list]]) -> dict[str, str]:
    """The word groups of every head, and word a head hangs from, of ``found``: one call."""
    words = set()
    for _variant, tokens in found:
        root = tokens[-1]
        words |= {_word(root), _word(root.head), _word(root.head.head)}
    return word_groups([w for w in words if w.isalpha()])


class Model(regression.Model):
    """A fitted finder: a regression over none and the entity types, with its threshold."""

    def __init__(self, data: dict):
        super().__init__(data)
        self.add = data.get("add", ADD)
        self._deltas: np.ndarray | None = None

    def decision(self, names: list[str]) -> tuple[float, str]:
        """How probable the phrase with these features is a name, and its likeliest type."""
        return _decision(self.classes, self.logits(names)[None, :])[0]

    def settled(self, names: list[str]) -> tuple[float, str] | None:
        """``decision`` when whatever a phrase's vector says leaves it as it is (none under
        every reading, or one type over ``add`` under every reading); None when its vector
        could change it (then it is embedded). Every reading at once, as the typer's
        ``Model.settled``."""
        if self._deltas is None:
            self._deltas = np.array([self.logits(added) - self.bias for added in VECTOR_SETS])
        readings = _decision(self.classes, self.logits(names) + self._deltas)
        added = [named >= self.add for named, _kind in readings]
        if not any(added):
            return 0.0, ""
        if all(added) and len({kind for _named, kind in readings}) == 1:
            return min(named for named, _kind in readings), readings[0][1]
        return None


def _decision(classes: list[str], logits: np.ndarray) -> list[tuple[float, str]]:
    """Per row of logits: the probability of any type but none, and the likeliest type."""
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    named = [i for i, c in enumerate(classes) if c != NONE]
    none = classes.index(NONE) if NONE in classes else None
    out = []
    for row in p:
        best = max(named, key=lambda i: row[i])
        out.append((1.0 - (row[none] if none is not None else 0.0), classes[best]))
    return out


def fit(rows: list[list[str]], labels: list[str], *, l2: float = L2, steps: int = STEPS) -> dict:
    fitted = regression.fit(
        rows, labels, [NONE, *ENTITY_TYPES], l2=l2, steps=steps, accelerated=True
    )
    return {**fitted, "examples": len(rows), "l2": l2, "steps": steps, "add": ADD}


@lru_cache(maxsize=1)
def shipped() -> Model | None:
    """The fitted file beside this module, read once (``cache_clear`` after writing it)."""
    return Model(json.loads(MODEL.read_text())) if MODEL.exists() else None


def load_model() -> Model | None:
    """The shipped model; None when ``MEMORYHUB_THING_FINDER`` is off or none is fitted."""
    if not settings.MEMORYHUB_GRAPH["thing_finder"]:
        return None
    return shipped()


VECTOR_SETS = [
    [f"vec={kind}", f"vec={kind}|{level}"] for kind in ENTITY_TYPES for level in typer.VECTOR_LEVELS
]


def _name_guesser():
    """The typer's regression from a name's vector to its type, or None."""
    model = typer.load_model()
    return getattr(model, "names", None) if model else None


def find(reader, *, model=None, record: list | None = None) -> None:
    """Add the things the finder finds to ``reader`` (a parser ``_Reader`` after its name
    rules). ``model``: a ``Model``, None for the shipped one, False for none. With
    ``record``, append ``(name, features)`` of every candidate phrase instead (the features
    of its vector are the fitter's to add, ``typer.vector_guess``)."""
    if record is None:
        model = load_model() if model is None else model
        if not model:
            return
    found = candidates(reader)
    if not found:
        return
    groups = group_words(found)
    scored, pending = [], []
    for variant, tokens in found:
        names = features(reader, variant, tokens, groups)
        name = reader.source[tokens[0].idx : tokens[-1].idx + len(tokens[-1])]
        if record is not None:
            record.append((name, names))
            continue
        settled = model.settled(names)
        if settled is None:
            pending.append((name, names, tokens))
        elif settled[0] >= model.add:
            scored.append((settled[0], settled[1], tokens))
    guesser = _name_guesser() if pending else None
    vectors = name_vectors([name for name, _names, _tokens in pending]) if guesser else {}
    for name, names, tokens in pending:
        if name in vectors:
            names = names + typer.vector_guess(guesser.probabilities(vectors[name]))
        named, kind = model.decision(names)
        if named >= model.add:
            scored.append((named, kind, tokens))
    for _named, kind, tokens in sorted(scored, key=lambda s: -s[0]):
        if reader._free(tokens):  # the likelier reading of a phrase first
            reader._add(tokens, kind, 0.55, origin="chunk")
