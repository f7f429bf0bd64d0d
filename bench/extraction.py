"""Measuring entity and relationship extraction (``manage.py eval_extraction``).

Two measures, both plain functions so that tests can call them:

- against a labelled set (JSONL, one object a line: ``{"id", "style", "text", "entities":
  [[name, type]], "relationships": [[source, TYPE, target]]}``): precision, recall and F1,
  micro-averaged over all texts, for entities by normalised name and by (name, type), and
  for relationships by typed triple (source, TYPE, target) and by untyped ordered pair
  (source, target); the same per style; which types were confused; the texts with the most
  errors. Names compare after ``normalize_name``, types after ``normalize_type``, relation
  types after ``normalize_relation_type``. The scoring takes gold items and ``Extraction``
  objects only (``score``, ``score_text``); running an extractor is ``extract_all``.
- over unlabelled conversation turns (LoCoMo dev, each turn as it is stored): how many
  entities and relationships per 100 turns, how many distinct names, the share of each
  type and the most frequent names (``profile``).
"""

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from bench.locomo import conversations, sessions, turn_text
from graph.extraction import EXTRACTOR_NAMES, get_extractor
from graph.extraction.base import Extraction, ExtractionError
from graph.vocabulary import normalize_name, normalize_relation_type, normalize_type

DATA_DIR = Path(settings.BASE_DIR) / "tests" / "data" / "extraction"
# Each split is one or more files, written by different hands; every file is a row.
SPLITS = {
    "dev": tuple(
        DATA_DIR / f"{name}.jsonl"
        for name in (
            "dev",
            "dev2",
            "dev3",
            "dev4",
            "dev5",
            "dev6",
            "dev7",
            "dev8",
            "dev9",
            "dev10",
            "dev11",
            "dev12",
            "dev13",
            "dev14",
            "dev15",
            "dev16",
            "dev17",
            "dev18",
            "dev19",
            "dev20",
            "dev21",
            "dev22",
            "dev23",
            "dev24",
            "dev25",
            "dev26",
            "dev27",
            "dev28",
            "dev29",
            "dev30",
            "dev31",
            "dev32",
            "dev33",
            "dev34",
            "dev35",
            "dev36",
            "dev37",
            "dev38",
            "dev39",
            "dev40",
            "dev41",
            "dev42",
            "dev43",
            "dev44",
            "dev45",
            "dev46",
            "dev47",
            "dev48",
            "dev49",
            "dev50",
            "dev51",
            "dev52",
            "dev53",
            "dev54",
            "dev55",
            "dev56",
            "dev57",
            "dev58",
            "dev59",
            "dev60",
        )
    ),
    "holdout": tuple(
        DATA_DIR / f"{name}.jsonl"
        for name in (
            "holdout",
            "holdout2",
            "holdout3",
            "holdout4",
            "holdout5",
            "holdout6",
            "holdout7",
            "holdout8",
            "holdout9",
            "holdout10",
            "holdout11",
            "holdout12",
            "holdout13",
            "holdout14",
            "holdout15",
            "holdout16",
            "holdout17",
            "holdout18",
            "holdout19",
            "holdout20",
            "holdout21",
            "holdout22",
            "holdout23",
            "holdout24",
            "holdout25",
            "holdout26",
            "holdout27",
            "holdout28",
            "holdout29",
            "holdout30",
            "holdout31",
            "holdout32",
            "holdout33",
            "holdout34",
            "holdout35",
            "holdout36",
            "holdout37",
            "holdout38",
            "holdout39",
            "holdout40",
        )
    ),
}
# Not in any set, so the timed run does not find it in a parse cache.
WARM_UP_TEXT = "Alice Chen owns the billing service, which uses PostgreSQL in Berlin."
BATCH_SIZE = 64


# --- labelled data -----------------------------------------------------------------------


@dataclass(frozen=True)
class LabelledText:
    id: str
    style: str
    text: str
    entities: tuple[tuple[str, str], ...]  # (name, type) as written
    relationships: tuple[tuple[str, str, str], ...]  # (source, TYPE, target) as written


def load_labelled(path: Path) -> list[LabelledText]:
    """The labelled texts of one JSONL file; ``FileNotFoundError`` if it is missing,
    ``ValueError`` naming the line if one is malformed. A line without ``id`` is named
    ``<file stem>:<line>``, one without ``style`` has style ``""``."""
    path = Path(path)
    items = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            items.append(
                LabelledText(
                    id=str(raw.get("id") or f"{path.stem}:{number}"),
                    style=str(raw.get("style") or ""),
                    text=str(raw["text"]),
                    entities=tuple((str(n), str(t)) for n, t in raw.get("entities") or []),
                    relationships=tuple(
                        (str(s), str(r), str(o)) for s, r, o in raw.get("relationships") or []
                    ),
                )
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"{path}, line {number}: not a labelled text ({exc})") from exc
    return items


# --- scoring -----------------------------------------------------------------------------


@dataclass
class Counts:
    """True positives, false positives and misses; precision and recall are 1.0 when there
    is nothing to be wrong about (nothing claimed, nothing to find)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: "Counts") -> "Counts":
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


def _counts(got: set, expected: set) -> Counts:
    return Counts(len(got & expected), len(got - expected), len(expected - got))


def gold_entities(item: LabelledText) -> set[tuple[str, str]]:
    return {(normalize_name(n), normalize_type(t)) for n, t in item.entities if normalize_name(n)}


def gold_relationships(item: LabelledText) -> set[tuple[str, str, str]]:
    return {
        (normalize_name(s), normalize_relation_type(r), normalize_name(o))
        for s, r, o in item.relationships
    }


def found_entities(extraction: Extraction) -> set[tuple[str, str]]:
    return {
        (normalize_name(e.name), normalize_type(e.type))
        for e in extraction.entities
        if normalize_name(e.name)
    }


def found_relationships(extraction: Extraction) -> set[tuple[str, str, str]]:
    return {
        (normalize_name(r.source), normalize_relation_type(r.type), normalize_name(r.target))
        for r in extraction.relationships
    }


@dataclass
class Measures:
    """The four counts that every row shows."""

    entities: Counts = field(default_factory=Counts)  # (name, type)
    entity_names: Counts = field(default_factory=Counts)  # name only
    relationships: Counts = field(default_factory=Counts)  # (source, TYPE, target)
    relationship_pairs: Counts = field(default_factory=Counts)  # (source, target)

    def __add__(self, other: "Measures") -> "Measures":
        return Measures(
            self.entities + other.entities,
            self.entity_names + other.entity_names,
            self.relationships + other.relationships,
            self.relationship_pairs + other.relationship_pairs,
        )

    def as_dict(self) -> dict:
        return {
            "entities": self.entities.as_dict(),
            "entity_names": self.entity_names.as_dict(),
            "relationships": self.relationships.as_dict(),
            "relationship_pairs": self.relationship_pairs.as_dict(),
        }


@dataclass
class TextScore:
    """One text: its counts and what went wrong (normalised names, sorted)."""

    id: str
    style: str
    text: str
    measures: Measures
    entity_false_positives: list[tuple[str, str]]
    entity_misses: list[tuple[str, str]]
    relationship_false_positives: list[tuple[str, str, str]]
    relationship_misses: list[tuple[str, str, str]]
    confusion: Counter  # (gold type, found type) → count

    @property
    def errors(self) -> int:
        """False positives and misses of entities (typed) and relationships (typed)."""
        return (
            len(self.entity_false_positives)
            + len(self.entity_misses)
            + len(self.relationship_false_positives)
            + len(self.relationship_misses)
        )

    def as_dict(self) -> dict:
        return {
            "id": self.id,
            "style": self.style,
            "text": self.text,
            "errors": self.errors,
            "entity_false_positives": [list(e) for e in self.entity_false_positives],
            "entity_misses": [list(e) for e in self.entity_misses],
            "relationship_false_positives": [list(r) for r in self.relationship_false_positives],
            "relationship_misses": [list(r) for r in self.relationship_misses],
        }


def _types_by_name(pairs: set[tuple[str, str]]) -> dict[str, set[str]]:
    by_name: dict[str, set[str]] = {}
    for name, type_ in pairs:
        by_name.setdefault(name, set()).add(type_)
    return by_name


def score_text(item: LabelledText, extraction: Extraction) -> TextScore:
    expected, got = gold_entities(item), found_entities(extraction)
    rexpected, rgot = gold_relationships(item), found_relationships(extraction)
    expected_types, got_types = _types_by_name(expected), _types_by_name(got)
    confusion: Counter = Counter()
    for name in expected_types.keys() & got_types.keys():
        # A name found with none of its gold types: each gold type taken for each found one.
        if not expected_types[name] & got_types[name]:
            for gold_type in expected_types[name]:
                for found_type in got_types[name]:
                    confusion[(gold_type, found_type)] += 1
    return TextScore(
        id=item.id,
        style=item.style,
        text=item.text,
        measures=Measures(
            entities=_counts(got, expected),
            entity_names=_counts(set(got_types), set(expected_types)),
            relationships=_counts(rgot, rexpected),
            relationship_pairs=_counts(
                {(s, o) for s, _, o in rgot}, {(s, o) for s, _, o in rexpected}
            ),
        ),
        entity_false_positives=sorted(got - expected),
        entity_misses=sorted(expected - got),
        relationship_false_positives=sorted(rgot - rexpected),
        relationship_misses=sorted(rexpected - rgot),
        confusion=confusion,
    )


@dataclass
class Score:
    """A labelled set scored: the micro-averaged measures, per style, the type confusion
    and every text's score (in the set's order)."""

    texts: list[TextScore]

    @property
    def measures(self) -> Measures:
        return sum((t.measures for t in self.texts), Measures())

    @property
    def by_style(self) -> dict[str, Measures]:
        styles: dict[str, Measures] = {}
        for text in self.texts:
            styles[text.style] = styles.get(text.style, Measures()) + text.measures
        return dict(sorted(styles.items()))

    @property
    def style_sizes(self) -> dict[str, int]:
        return dict(sorted(Counter(t.style for t in self.texts).items()))

    @property
    def confusion(self) -> Counter:
        return sum((t.confusion for t in self.texts), Counter())

    def worst(self, n: int) -> list[TextScore]:
        """The ``n`` texts with the most errors (ties in the set's order); none without."""
        return sorted((t for t in self.texts if t.errors), key=lambda t: -t.errors)[:n]


def score(items: Sequence[LabelledText], extractions: Sequence[Extraction]) -> Score:
    if len(items) != len(extractions):
        raise ValueError(f"{len(items)} labelled texts but {len(extractions)} extractions")
    return Score([score_text(i, e) for i, e in zip(items, extractions, strict=True)])


# --- running an extractor ----------------------------------------------------------------


def resolve_extractor(name: str):
    """``(extractor, None)`` or ``(None, why it cannot run)``: ``llm`` without
    ``MEMORYHUB_LLM_URL``, or ``parser`` when it cannot load (``get_extractor`` would
    quietly hand back the heuristic one, which must not be measured under its name).
    An unknown name is a ``ValueError``."""
    if name not in EXTRACTOR_NAMES:
        raise ValueError(f"unknown extractor {name!r}; choose from {', '.join(EXTRACTOR_NAMES)}")
    if name == "llm" and not settings.MEMORYHUB_LLM["url"]:
        return None, "MEMORYHUB_LLM_URL is not set"
    try:
        extractor = get_extractor(name)
    except ImportError as exc:
        return None, f"it cannot be imported ({exc})"
    if extractor.name != name:
        from memoryhub.nlp import nlp_status

        error = nlp_status().get("error") or "unknown reason"
        return None, f"it cannot load, get_extractor falls back to {extractor.name} ({error})"
    return extractor, None


@dataclass
class Run:
    extractions: list[Extraction]
    seconds: float  # wall time of extract_many over all texts (warm-up excluded)
    failures: int = 0  # texts whose extraction raised ExtractionError (scored as empty)

    def ms_per_text(self) -> float:
        return 1000.0 * self.seconds / len(self.extractions) if self.extractions else 0.0


def extract_all(
    extractor,
    texts: Sequence[str],
    *,
    batch_size: int = BATCH_SIZE,
    on_batch: Callable[[int], None] | None = None,
) -> Run:
    """Every text through ``extractor.extract_many`` in batches, after one untimed warm-up
    call (loading models). A batch that raises ``ExtractionError`` is redone text by text;
    a text that still fails counts as a failure and an empty extraction."""
    extractor.extract(WARM_UP_TEXT)
    extractions: list[Extraction] = []
    failures = 0
    seconds = 0.0
    for start in range(0, len(texts), batch_size):
        batch = list(texts[start : start + batch_size])
        began = time.perf_counter()
        try:
            extractions.extend(extractor.extract_many(batch))
        except ExtractionError:
            for text in batch:
                try:
                    extractions.append(extractor.extract(text))
                except ExtractionError:
                    extractions.append(Extraction())
                    failures += 1
        seconds += time.perf_counter() - began
        if on_batch:
            on_batch(len(batch))
    return Run(extractions, seconds, failures)


def evaluation_report(
    *, extractor: str, split: str, result: Score, run: Run, errors: int = 0
) -> dict:
    """The figures of one extractor on one split, as ``--json`` prints them."""
    report = {
        "extractor": extractor,
        "split": split,
        "texts": len(result.texts),
        "ms_per_text": round(run.ms_per_text(), 3),
        "failures": run.failures,
        **result.measures.as_dict(),
        "by_style": {
            style: {"texts": result.style_sizes[style], **measures.as_dict()}
            for style, measures in result.by_style.items()
        },
        "type_confusion": [
            {"gold": gold, "found": found, "count": count}
            for (gold, found), count in result.confusion.most_common()
        ],
    }
    if errors:
        report["worst"] = [t.as_dict() for t in result.worst(errors)]
    return report


def pooled(scores: Iterable[Score], runs: Iterable[Run]) -> tuple[Score, Run]:
    """Several splits' scores and runs as one (for the ``all`` row)."""
    texts, extractions, seconds, failures = [], [], 0.0, 0
    for s in scores:
        texts.extend(s.texts)
    for r in runs:
        extractions.extend(r.extractions)
        seconds += r.seconds
        failures += r.failures
    return Score(texts), Run(extractions, seconds, failures)


# --- unlabelled conversations (LoCoMo) ---------------------------------------------------


def locomo_turns(folder: Path) -> list[str]:
    """Every turn of every LoCoMo conversation in ``folder`` (``*.json``, sorted), as the
    benchmark stores it: "Speaker (date): text". ``FileNotFoundError`` if there is none."""
    turns = []
    for _path, _data, conversation in conversations(folder):
        for _number, when, session in sessions(conversation):
            turns.extend(turn_text(turn, when) for turn in session)
    return turns


@dataclass
class Profile:
    """What an extractor finds in unlabelled texts. Within one text a name counts once
    (normalised), with every type it was given there."""

    texts: int
    entities: int  # distinct (name, type) per text, summed
    relationships: int  # distinct (source, TYPE, target) per text, summed
    name_texts: Counter  # name → number of texts that yield it
    name_types: dict[str, Counter]  # name → type → number of texts
    type_counts: Counter  # type → entities of that type (as counted in ``entities``)
    seconds: float = 0.0
    failures: int = 0

    def per_100(self, count: int) -> float:
        return 100.0 * count / self.texts if self.texts else 0.0

    def ms_per_text(self) -> float:
        return 1000.0 * self.seconds / self.texts if self.texts else 0.0

    def type_shares(self) -> dict[str, float]:
        total = sum(self.type_counts.values())
        return {t: c / total for t, c in self.type_counts.most_common()} if total else {}

    def top(self, n: int) -> list[tuple[str, int, list[str]]]:
        """The ``n`` names found in the most texts: (name, texts, types most frequent
        first); ties by name."""
        ranked = sorted(self.name_texts.items(), key=lambda item: (-item[1], item[0]))[:n]
        return [
            (name, count, [t for t, _ in self.name_types[name].most_common()])
            for name, count in ranked
        ]

    def as_dict(self, top: int) -> dict:
        return {
            "texts": self.texts,
            "entities_per_100": round(self.per_100(self.entities), 2),
            "relationships_per_100": round(self.per_100(self.relationships), 2),
            "distinct_names": len(self.name_texts),
            "type_shares": {t: round(s, 4) for t, s in self.type_shares().items()},
            "top": [{"name": n, "texts": c, "types": types} for n, c, types in self.top(top)],
            "ms_per_text": round(self.ms_per_text(), 3),
            "failures": self.failures,
        }


def profile(
    extractions: Sequence[Extraction], *, seconds: float = 0.0, failures: int = 0
) -> Profile:
    entities = relationships = 0
    name_texts: Counter = Counter()
    name_types: dict[str, Counter] = {}
    type_counts: Counter = Counter()
    for extraction in extractions:
        found = found_entities(extraction)
        entities += len(found)
        relationships += len(found_relationships(extraction))
        name_texts.update({name for name, _ in found})
        for name, type_ in found:
            name_types.setdefault(name, Counter())[type_] += 1
            type_counts[type_] += 1
    return Profile(
        texts=len(extractions),
        entities=entities,
        relationships=relationships,
        name_texts=name_texts,
        name_types=name_types,
        type_counts=type_counts,
        seconds=seconds,
        failures=failures,
    )
