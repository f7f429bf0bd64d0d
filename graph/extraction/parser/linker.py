"""Relationships learned from the words that join two names: the linker.

The relation rules (``relations``) read a relationship off a construction they know ("X
works at Y", "Y's CTO X", "X, which runs on Y"). A writer they were not written for joins
two names in other ways, and most of what the rules miss on new text is a pair of names
they found, in one sentence, joined by words no rule reads. The linker reads those words
as features of a regression (``regression``, stored as ``relation_pairs.json`` beside this
module, fitted on the labelled development texts by ``manage.py fit_relation_linker``)
that predicts, for each pair of names in one sentence (or one row of a markdown table),
which relationship joins them and in which direction, or none:

- the types of both names, in the order they stand;
- the path between them in the dependency parse: its labels, the word where the two
  branches meet (a verb, a preposition, a noun such as "owner"), the words and
  prepositions on it, and whether a negation hangs from it;
- the words between them when they are close, and the punctuation (a colon, a comma, an
  arrow, parentheses); in a markdown table row, the headers of their two columns
  instead;
- how each name is reached: a name, a pronoun the rules resolve ("I" in a dialogue turn is
  its speaker, "User" in agent notes is the user), a noun that stands for it ("my sister
  Kasia", "the billing service");
- the word groups of the words on the path and where it meets (``word_clusters.json``:
  the bundled all-MiniLM-L6-v2's vectors of the development texts' words, grouped by
  k-means), so that a verb no labelled text used counts as the ones near it ("steers",
  "helms" beside "leads"; "resides" beside "lives").

(A section's subject paired with each name on a line below it, read by the line's key,
added nothing: 0.369 against 0.373 on dev8, the same mean with each file held out. Nor did
a dialogue's speaker paired with every name of their turn, read by the turn's verbs,
particles and pronouns: 0.617 against 0.616 mean with each file held out, 2026-11-24; the
development texts hold 61 such pairs related and 173 not. Nor did the text's first name
paired with every name of the sentences below it, read by how that name hangs in its
sentence and what its sentence's subject is — "The card-authorizer is a Go service. Hot
spend limits are kept in Redis": 0.335 → 0.341 and 0.298 → 0.305 on the two newest
development files held out in turn, 0.470 → 0.466 on the held-out files, 2026-12-03. Nor
did the linker's veto of a rule's relationship it finds improbable for its pair: with the
linker fitted on dev…dev49, of dev50–dev53's 1,098 rule relationships 547 joined a pair
the linker reads; dropping those it gave under 0.01 to 0.2 of their kind (and over 0.5 to
none) moved the relationship F1 from 0.5180 to between 0.5115 and 0.5182, 2026-12-07.)

It is fitted on every pair, the ones the rules relate too, so that it learns what the
words between two names say from all the labelled relationships rather than from the few
the rules miss on the texts they were written for; it reads nothing of the rules' output.

A pair the rules left unrelated gains the linker's relationship when it is at least
``ADD`` probable; the rules' own relationships stay (the linker only adds). Without a
fitted model, or with ``MEMORYHUB_RELATION_LINKER=false``, nothing changes.
"""

import json
import re
from functools import lru_cache
from pathlib import Path

from django.conf import settings

from graph.extraction.parser import regression
from graph.extraction.parser.names import LIST_GAP
from graph.extraction.parser.vectors import word_groups
from graph.extraction.parser.words import SETTLING_VERBS
from graph.vocabulary import normalize_name
from memoryhub import lexicon
from memoryhub.values import line_around

# A letter's or a message's opening line that addresses someone: "Dear Sam,", "Hi all".
SALUTATION = re.compile(
    r"^\s*(?:dear|hi|hello|hey|morning|good morning)\b[^.!?:]{0,60}[,!]?\s*$", re.I
)
MODEL = Path(__file__).with_name("relation_pairs.json")
NONE = "none"
# How probable the linker's relationship must be to add it to a pair the rules left
# unrelated. With the relationships' recall near half their precision, a pair added at even
# a third's chance of being right raises F1. With each of the four newest development files
# held out in turn (the writers most like new text), the mean relationship F1 was 0.408 at
# 0.2, 0.405 at 0.25, 0.399 at 0.3 and 0.386 at 0.5 (2026-12-03; the oldest files, written
# beside the rules, still do best near 0.5): 0.25, a step short of the lowest.
ADD = 0.25
# Fit settings (see ``fit_relation_linker --cross-validate``). Plain gradient descent
# stopped far short of the regression's optimum in 800 steps (training loss 0.681 against
# 0.338 reachable); with Nesterov's momentum (``ACCELERATED``) the same 800 steps reach it.
# Fitted on dev…dev24, the converged model raised the relationship F1 at ``ADD`` on each of
# the four newest development files (mean 0.347 → 0.358) and on each of the three newest
# held-out files (0.436 → 0.452); a class-weighted, a two-stage, a feature-crossed
# regression, a small MLP and boosted trees did no better than it (2026-12-04).
L2 = 1.0
STEPS = 800
ACCELERATED = True
# A relationship between two types the labelled texts join by it in less than this share
# of its relationships is dropped, whoever found it ("Lorna INTEGRATES_WITH Baby", "Kiran
# REVIEWED Ana"): the names are typed wrong or the words said something else. With the
# linker fitted on the other development files, the four newest files' relationship F1
# went 0.409 → 0.412 at 0.005 (0.003 and 0.01 alike; 0.03: 0.409), dropping 55 found
# relationships of which 5 were right (2026-12-05). 0.003, which did as well, since: at
# 0.005 a pair just under it (a person MIGRATED_TO a provider, "switched her phone plan from
# Safaricom to Airtel": 3 of 606) came and went with each refit. A relationship with fewer than
# ``MIN_TYPED`` labelled examples is never dropped.
RARE_TYPES = 0.003
MIN_TYPED = 50
# The only kinds a negated path can state ("no longer uses X").
NEGATED_KINDS = {"STOPPED_USING"}
# "used to live in Abuja": a past habit, no relationship now (the rules read it alike).
USED_TO = re.compile(r"\bused to\b", re.IGNORECASE)
# Where one was born or a child: "grew up in", "was born and raised in".
CHILDHOOD = re.compile(r"\b(?:grew|grow|growing|grown) up\b|\bborn\b|\braised\b", re.IGNORECASE)
# A place sought, not held: "applied for a nursing job at St Mary's", "interviewed for the
# analyst role at Deloitte" (as the rules read it; not "the interview at Brightwater went
# great, I start Monday", nor "lets subscribers apply transactions").
SOUGHT = re.compile(
    r"\b(?:appl(?:y|ies|ied|ying)|audition(?:s|ed|ing)?)\s+(?:for|to)\b|\bapplication\s+for\b|"
    r"\binterview(?:s|ed|ing)?\s+for\b|\bshortlisted\b",
    re.IGNORECASE,
)
SOUGHT_KINDS = {"WORKS_FOR", "STUDIES_AT", "PART_OF"}
# Kinds one holds with one other at a time: a spouse the rules read leaves none for the
# linker to add ("My husband Joaquín and I ... with our kids, Benjamín and Renata").
ONE_ONLY = {"MARRIED_TO"}
# Kinds that put one thing inside another, which two items of one list never are.
CONTAINING_KINDS = {"LOCATED_IN", "PART_OF"}
# Farthest apart two names may stand, in tokens, to be read as a pair.
MAX_DISTANCE = 30
ANCHOR_POS = {"PRON", "NOUN", "PROPN"}
PUNCTUATION = {",", ":", ";", "(", ")", "-", "–", "—", "->", "→", "=>", "/", "|", "@"}


def _word(token) -> str:
    return token.lemma_.lower() if token.is_alpha else token.text.lower()


def _ancestors(token) -> list:
    chain = [token]
    while chain[-1].head.i != chain[-1].i and len(chain) < 40:
        chain.append(chain[-1].head)
    return chain


def _list_head(token) -> int:
    """The first item of the list a token is an item of (itself when none)."""
    while token.dep_ == "conj" and token.head.i != token.i:
        token = token.head
    return token.i


def _coordinated(reader, mx, my) -> bool:
    """Whether the two names are items of one list ("Berlin, Munich and Hamburg"): joined
    by the parse as conjuncts, or in a run of three or more names of one type with only
    commas and "and" between them."""
    if mx.root >= 0 and my.root >= 0:
        x, y = reader.doc[mx.root], reader.doc[my.root]
        if (x.dep_ == "conj" or y.dep_ == "conj") and _list_head(x) == _list_head(y):
            return True
    same = sorted((m for m in reader.mentions if m.type == mx.type), key=lambda m: m.start)
    runs, run = [], []
    for mention in same:
        if run and LIST_GAP.fullmatch(reader.source[run[-1].end : mention.start]):
            run.append(mention)
        else:
            run = [mention]
            runs.append(run)
    return any(len(r) >= 3 and mx in r and my in r for r in runs)


def _column(columns, mention) -> str | None:
    return next((key for start, end, key in columns if start <= mention.start < end), None)


def _one_row(reader, mx, my) -> bool:
    """Two cells of one markdown table row."""
    return (
        _column(reader.columns, mx) is not None
        and _column(reader.columns, my) is not None
        and "\n" not in reader.source[mx.start : my.start]
    )


def pair_features(doc, x, mx, y, my, columns=()) -> list[str]:
    """The features of the names ``mx`` (reached at token ``x``) and ``my`` (at ``y``),
    ``x`` before ``y`` in one sentence; ``columns``: the table cells' headers."""
    types = f"{mx.type}|{my.type}"
    out = [f"t={types}"]
    cx, cy = _column(columns, mx), _column(columns, my)
    if cx and cy:  # one table row (its cells are parsed apart): the headers say it
        return out + [f"cols={cx}|{cy}", f"colx={cx}", f"coly={cy}", "table_row"]
    up_x, up_y = _ancestors(x), _ancestors(y)
    ids_y = {t.i: n for n, t in enumerate(up_y)}
    meet = next(((n, t) for n, t in enumerate(up_x) if t.i in ids_y), None)
    if meet is None:
        return []
    nx, lca = meet
    ny = ids_y[lca.i]
    path_x, path_y = up_x[:nx], up_y[:ny]  # from each end up to (not including) the meeting
    labels = "/".join(t.dep_ for t in path_x) + "^" + "/".join(t.dep_ for t in reversed(path_y))
    if lca.i == x.i:
        where = "x"
    elif lca.i == y.i:
        where = "y"
    else:
        where = _word(lca)
    out += [
        f"path={labels}",
        f"path|at={labels}|{where}",
        f"at={where}",
        f"at|t={where}|{types}",
        f"len={min(nx + ny, 6)}",
    ]
    inner = [t for t in path_x[1:] + [lca] + path_y[1:] if t.i not in (x.i, y.i)]
    for token in inner:
        out.append(f"on={_word(token)}")
        if token.dep_ in {"prep", "agent", "dative"}:
            out.append(f"prep={token.lower_}")
            out.append(f"prep|t={token.lower_}|{types}")
        if any(c.dep_ == "neg" for c in token.children):
            out.append("negated")
    if x.head.i == y.i or y.head.i == x.i:
        out.append("attached")
    # the words between the two names, not the words of either name ("Via Tortona, Osteria
    # Bruma": a comma; the anchors are the names' heads, "Tortona" and "Bruma")
    after_x = mx.end if mx.start <= x.idx < mx.end else x.idx + len(x)
    before_y = my.start if my.start <= y.idx < my.end else y.idx
    between = [t for t in doc[x.i + 1 : y.i] if t.idx >= after_x and t.idx + len(t) <= before_y]
    if len(between) <= 6:
        words = [t for t in between if not t.is_punct]
        out += [f"bw={_word(t)}" for t in words]
        out += [f"bp={t.text}" for t in between if t.text in PUNCTUATION]
        if not words:
            out.append("adjacent")
    else:
        out.append("far")
    out += [
        f"xd={x.dep_}",
        f"yd={y.dep_}",
        f"yd|h={y.dep_}|{_word(y.head)}",
        f"xd|h={x.dep_}|{_word(x.head)}",
    ]
    if x.pos_ == "PRON":
        out.append(f"xp={x.lower_}")
    elif x.i != mx.root:
        out.append("x_by_noun")
    if y.pos_ == "PRON":
        out.append(f"yp={y.lower_}")
    elif y.i != my.root:
        out.append("y_by_noun")
    if mx.origin == "speaker":
        out.append("x_speaker")
    return out


# --- word groups ---------------------------------------------------------------------------

PATH = ("on=", "at=")


def _path_words(names) -> list[str]:
    """The words on a pair's path and where it meets ("at=x": at the first name, no word)."""
    return [f[3:] for f in names if f[:3] in PATH and f not in ("at=x", "at=y")]


def _with_groups(names: list[str], groups: dict[str, str]) -> list[str]:
    """``names`` and the ``groups`` of the words on the path ("on=") and where it meets
    ("at=")."""
    if not groups:
        return names
    types = next((f[2:] for f in names if f.startswith("t=")), "")
    extra = []
    for feature in names:
        if feature.startswith("on="):
            group = groups.get(feature[3:])
            if group:
                extra.append(f"onc={group}")
        elif feature.startswith("at="):
            group = groups.get(feature[3:])
            if group:
                extra += [f"atc={group}", f"atc|t={group}|{types}"]
    return names + [e for e in dict.fromkeys(extra) if e not in names]


# What someone does to a thing: not theirs when the verb that reaches the thing has another
# person for its subject.
AGENTIVE = frozenset(
    """CREATED OWNS LEADS REVIEWED USES STOPPED_USING MIGRATED_TO LIKES DISLIKES PREFERS
    VISITED ATTENDED""".split()
)
OTHER_AGENT = "agent=other"


def _agents(reader, anchor) -> frozenset:
    """The people (normalised names) the verb ``anchor`` hangs from (through a preposition
    at most) has for its subject, unless ``anchor`` is a subject itself: what is done to the
    thing at ``anchor`` is theirs ("... how Keiko and Omar designed *it*")."""
    if anchor.dep_ in {"nsubj", "nsubjpass"}:
        return frozenset()
    verb = anchor.head.head if anchor.dep_ == "pobj" else anchor.head
    if verb.pos_ not in {"VERB", "AUX"} or verb is anchor:
        return frozenset()
    subjects = (reader._mention_of(c) for c in verb.children if c.dep_ == "nsubj")
    return frozenset(normalize_name(m.name) for m in subjects if m and m.type == "person")


def candidates(reader) -> dict[tuple[str, str], tuple]:
    """Every pair of names reached in one sentence, in text order: ``(normalised first,
    normalised second) → (first mention, second mention, features)``; the features of
    every place where the pair meets are pooled."""
    doc = reader.doc
    anchors = []
    for mention in reader.mentions:
        if 0 <= mention.root < len(doc) and mention.origin != "speaker":
            anchors.append((doc[mention.root], mention))
    for token in doc:
        if token.pos_ in ANCHOR_POS and token.i not in reader.by_token:
            mention = reader._mention_of(token)
            if mention is not None:
                anchors.append((token, mention))
    anchors.sort(key=lambda a: a[0].i)
    agents = {token.i: _agents(reader, token) for token, _mention in anchors}
    sentence = [0] * len(doc)  # each token's sentence start (``token.sent`` walks the doc)
    for sent in doc.sents:
        sentence[sent.start : sent.end] = [sent.start] * len(sent)
    pairs: dict[tuple[str, str], tuple] = {}
    for n, (x, mx) in enumerate(anchors):
        for y, my in anchors[n + 1 :]:
            if y.i - x.i > MAX_DISTANCE:
                break
            if mx is my or (sentence[y.i] != sentence[x.i] and not _one_row(reader, mx, my)):
                continue
            keys = (normalize_name(mx.name), normalize_name(my.name))
            if not all(keys) or keys[0] == keys[1]:
                continue
            names = pair_features(doc, x, mx, y, my, reader.columns)
            if not names:
                continue
            if agents[y.i] - {keys[0]}:  # someone else's doing to the second name
                names.append(OTHER_AGENT + ">")
            if agents[x.i] - {keys[1]}:
                names.append(OTHER_AGENT + "<")
            if keys in pairs:
                pairs[keys][2].extend(n for n in names if n not in pairs[keys][2])
            elif keys[::-1] in pairs:
                continue  # the first reading of the two names sets their order
            else:
                pairs[keys] = (mx, my, names)
    # every word of the text's paths at once: one call to the model
    groups = word_groups([w for _x, _y, names in pairs.values() for w in _path_words(names)])
    return {keys: (mx, my, _with_groups(names, groups)) for keys, (mx, my, names) in pairs.items()}


def _left_place(reader, place) -> bool:
    """Whether ``place`` is where one has moved from ("moved from Hanoi", "have relocated
    from Bogotá"); one about to move from it lives there still."""
    if not 0 <= place.root < len(reader.doc):
        return False
    prep = reader.doc[place.root].head
    verb = prep.head
    if prep.lower_ != "from" or verb.lemma_.lower() not in SETTLING_VERBS:
        return False
    return verb.tag_ == "VBD" or (  # not "are moving from Seoul in August": still there
        verb.tag_ == "VBN" and any(c.lemma_ == "have" for c in verb.children)
    )


def label(relation: str, forward: bool) -> str:
    return f"{relation}{'>' if forward else '<'}"


class Model(regression.Model):
    """A fitted linker: a regression over "TYPE>" / "TYPE<" / "none", with its threshold,
    and how often each relationship joins each pair of types in the labelled texts."""

    def __init__(self, data: dict):
        super().__init__(data)
        self.add = data.get("add", ADD)
        self.type_pairs: dict[str, dict[str, int]] = data.get("type_pairs") or {}

    def plausible(self, relation: str, source_type: str, target_type: str) -> bool:
        """Whether the labelled texts join these two types by ``relation`` in at least
        ``RARE_TYPES`` of its relationships; always, for a relationship with fewer than
        ``MIN_TYPED`` labelled examples."""
        counts = self.type_pairs.get(relation)
        total = sum(counts.values()) if counts else 0
        if total < MIN_TYPED:
            return True
        return counts.get(f"{source_type}|{target_type}", 0) / total >= RARE_TYPES


def fit(
    rows: list[list[str]],
    labels: list[str],
    *,
    l2: float = L2,
    steps: int = STEPS,
    min_count: int = 2,
    add: float = ADD,
    accelerated: bool = ACCELERATED,
) -> dict:
    classes = [NONE] + sorted(set(labels) - {NONE})
    fitted = regression.fit(
        rows, labels, classes, l2=l2, steps=steps, min_count=min_count, accelerated=accelerated
    )
    return {**fitted, "examples": len(rows), "l2": l2, "steps": steps, "add": add}


@lru_cache(maxsize=1)
def shipped() -> Model | None:
    """The fitted file beside this module, read once (``cache_clear`` after writing it)."""
    return Model(json.loads(MODEL.read_text())) if MODEL.exists() else None


def _addressed(source: str, mention) -> bool:
    """Whether ``mention`` is the name a letter's or a message's salutation line addresses
    ("Dear Sam,", "Hi Ana and Ben,")."""
    return bool(SALUTATION.match(line_around(source, mention.start, mention.end)))


def load_model() -> Model | None:
    """The shipped model; None when ``MEMORYHUB_RELATION_LINKER`` is off or none is fitted."""
    if not settings.MEMORYHUB_GRAPH.get("relation_linker", True):
        return None
    return shipped()


def link(reader, *, model=None, record: list | None = None) -> None:
    """Add the linker's relationships to ``reader`` (a parser ``_Reader`` after its rules).
    ``model``: a ``Model``, None for the shipped one, False for none. With ``record``,
    append ``(first name, second name, features)`` for each candidate pair instead."""
    if record is None:
        model = load_model() if model is None else model
        if not model:
            return
    pairs = candidates(reader)
    if record is not None:
        record.extend((mx.name, my.name, names) for mx, my, names in pairs.values())
        return
    linked = {(s, t) for s, _, t in reader.relationships}
    authored = {  # works the rules gave their authors ("*Accelerate* — Forsgren, …")
        normalize_name(r.target) for r in reader.relationships.values() if r.type == "CREATED"
    }
    for keys, (mx, my, names) in pairs.items():
        if keys in linked or keys[::-1] in linked:
            continue
        probabilities = model.probabilities(names)
        best = max((c for c in probabilities if c != NONE), key=probabilities.get, default=None)
        if best is None or probabilities[best] < model.add:
            continue
        relation, forward = best[:-1], best.endswith(">")
        if "negated" in names and relation not in NEGATED_KINDS:
            continue  # "does not use Kafka" states nothing (as in the rules)
        between = reader.source[min(mx.end, my.end) : max(mx.start, my.start)]
        if "\n" in between and any(_addressed(reader.source, m) for m in (mx, my)):
            continue  # "Dear Sam," over the letter: whom it is written to, nothing more
        if USED_TO.search(between) and relation not in NEGATED_KINDS:
            continue  # "used to live in Abuja": no longer (as in the rules)
        if relation in SOUGHT_KINDS and SOUGHT.search(between):
            continue  # "applied for a job at St Mary's": sought, not held (as the rules)
        if relation == "LIVES_IN" and CHILDHOOD.search(between):
            continue  # "grew up in Tashkent", "born in Enugu": then, not now (as the rules)
        if relation == "LIVES_IN" and _left_place(reader, my if forward else mx):
            continue  # "I moved from Hanoi to Melbourne": no longer Hanoi
        if relation in ONE_ONLY and set(keys) & reader._related_names(relation):
            continue  # "My husband Joaquín and I ... with our kids, Benjamín and Renata"
        if relation in CONTAINING_KINDS and _coordinated(reader, mx, my):
            continue  # "Offices: Berlin, Munich, Hamburg": peers, not one inside the other
        if relation in CONTAINING_KINDS and all(lexicon.REGION.match(m.name) for m in (mx, my)):
            continue  # "Regions: us-east-1, eu-west-1": no cloud region lies in another
        sentence = reader.doc.char_span(mx.start, mx.end, alignment_mode="expand")
        if (
            relation == "REPLACES"
            and sentence is not None
            and reader._person_moved(mx, my, sentence.sent.start_char)
        ):
            continue  # "Sara moved from Deloitte to Accenture": her move (as in the rules)
        source, target = (mx, my) if forward else (my, mx)
        if relation in AGENTIVE and OTHER_AGENT + (">" if forward else "<") in names:
            continue  # "Priya wrote a post about how Keiko designed it": Keiko's doing
        if relation == "CREATED" and target.origin == "title":
            if normalize_name(target.name) in authored:
                continue  # "*Accelerate* — Forsgren, Humble, Kim (rec'd by Dana)": listed
        reader._relate(
            source,
            target,
            relation,
            sentence.sent if sentence is not None else "",
            confidence=round(probabilities[best] * 0.7, 2),
        )


def prune(reader, *, model=None) -> None:
    """Drop the relationships of ``reader`` that join two types ``model`` (None: the
    shipped linker, False: none) finds implausible for them; not one that a sentence
    states of a whole list whose other items it is plausible for ("whose members include
    Siemens and Bosch": Bosch as Siemens, whatever type Bosch was given)."""
    model = load_model() if model is None else model
    if not model or not getattr(model, "type_pairs", None):
        return
    types = {normalize_name(m.name): m.type for m in reader.mentions}
    implausible, lists = [], set()
    for key, relationship in reader.relationships.items():
        source = types.get(normalize_name(relationship.source))
        target = types.get(normalize_name(relationship.target))
        if source and target and not model.plausible(relationship.type, source, target):
            implausible.append(key)
        else:
            lists.add((key[1], key[2], relationship.description))
            lists.add((key[1], key[0], relationship.description))
    for key in implausible:
        description = reader.relationships[key].description
        if (key[1], key[2], description) in lists or (key[1], key[0], description) in lists:
            continue
        del reader.relationships[key]
