"""Fitting and measuring the learned entity typer (``graph.extraction.parser.typer``).

The examples are the names the parser extractor finds in the labelled development texts
that the gold labels also name, each with its features at the point where the typer reads
it and the gold type as its label. ``cross_validate`` holds out one labelled file at a time
(every file was written by a different hand, so a held-out file is new phrasing): it fits
on the others and scores the extractor on the held-out file with and without the model.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from bench.extraction import LabelledText, load_labelled, score
from graph.extraction.parser import read_parsed, typer
from graph.vocabulary import normalize_name, normalize_type
from memoryhub.nlp import parse_many


@dataclass
class LabelledFile:
    name: str
    items: list[LabelledText]
    docs: list

    @classmethod
    def load(cls, path: Path) -> "LabelledFile":
        items = load_labelled(path)
        return cls(Path(path).stem, items, list(parse_many([i.text for i in items])))

    @cached_property
    def examples(self) -> tuple[list[list[str]], list[str]]:
        """Read once per file: every fold of ``cross_validate`` and the final fit share it."""
        return examples(self)


def examples(file: LabelledFile) -> tuple[list[list[str]], list[str]]:
    """The features and gold type of every found name the gold labels also name (the
    recording pass applies no model, so they do not depend on the shipped one)."""
    rows, labels = [], []
    for item, doc in zip(file.items, file.docs, strict=True):
        gold: dict[str, str] = {}
        for name, kind in item.entities:
            gold.setdefault(normalize_name(name), normalize_type(kind))
        recorded: list = []
        read_parsed(doc, typer_record=recorded)
        for mention, names in recorded:
            kind = gold.get(normalize_name(mention.name))
            if kind:
                rows.append(names)
                labels.append(kind)
    return rows, labels


def fit_files(files: Sequence[LabelledFile], **settings) -> dict:
    rows, labels = [], []
    for file in files:
        file_rows, file_labels = file.examples
        rows += file_rows
        labels += file_labels
    return typer.fit(rows, labels, **settings)


def measure(file: LabelledFile, model) -> dict:
    """Entity (name, type) and relationship F1 of the parser on ``file`` with ``model``
    (``False``: without the typer)."""
    measures = score(file.items, [read_parsed(d, typer_model=model) for d in file.docs]).measures
    return {
        "entities_f1": round(measures.entities.f1, 3),
        "relationships_f1": round(measures.relationships.f1, 3),
    }


def cross_validate(
    files: Sequence[LabelledFile],
    *,
    margin: float = typer.MARGIN,
    on_file: Callable = None,
    **settings,
) -> list[dict]:
    """Per held-out file: the figures without the typer and with one fitted on the others."""
    rows = []
    for held in files:
        model = typer.Model(
            fit_files([f for f in files if f is not held], margin=margin, **settings)
        )
        row = {"file": held.name, "without": measure(held, False), "with": measure(held, model)}
        rows.append(row)
        if on_file:
            on_file(row)
    return rows
