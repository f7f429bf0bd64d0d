"""Fitting and measuring the learned entity typer (``graph.extraction.parser.typer``).

The examples are the names the parser extractor finds in the labelled development texts
that the gold labels also name, each with its features at the point where the typer reads
it and the gold type as its label. ``cross_validate`` holds out one labelled file at a time
(every file was written by a different hand, so a held-out file is new phrasing): it fits
on the others and scores the extractor on the held-out file with and without the model.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from bench.extraction import LabelledText, load_labelled, score
from graph.extraction.parser import read_parsed, regression, typer
from graph.extraction.parser.vectors import name_vectors
from graph.vocabulary import ENTITY_TYPES, normalize_name, normalize_type
from memoryhub.nlp import parse_many
from memoryhub.progress import Progress


@dataclass
class LabelledFile:
    name: str
    items: list[LabelledText]
    docs: list
    cache: dict = field(default_factory=dict)  # what other fitters read once per file

    @classmethod
    def load(cls, path: Path) -> "LabelledFile":
        items = load_labelled(path)
        return cls(Path(path).stem, items, list(parse_many([i.text for i in items])))

    @cached_property
    def recorded(self) -> list[tuple[set[str], list]]:
        """Read once per file: each text's normalised gold names and the ``(mention,
        features)`` of every name the parser finds in it (the recording pass applies no
        model, so they do not depend on the shipped one)."""
        out = []
        for item, doc in zip(self.items, self.docs, strict=True):
            recorded: list = []
            read_parsed(doc, typer_record=recorded)
            out.append(({normalize_name(name) for name, _kind in item.entities}, recorded))
        return out

    @cached_property
    def examples(self) -> tuple[list[list[str]], list[str], list[str]]:
        """Read once per file: every fold of ``cross_validate`` and the final fit share it."""
        return examples(self)

    @cached_property
    def junk_examples(self) -> tuple[list[list[str]], list[str]]:
        """Read once per file: ``junk_examples``."""
        return junk_examples(self)

    @cached_property
    def gold_names(self) -> list[tuple[str, str]]:
        """Every labelled name of the file once, with its (first) gold type."""
        names: dict[str, str] = {}
        for item in self.items:
            for name, kind in item.entities:
                names.setdefault(name, normalize_type(kind))
        return list(names.items())


def load_dev_files(paths: Sequence[Path], *, stream=None) -> list[LabelledFile]:
    """Parse each labelled development file once, with progress on ``stream``; a
    ``*holdout*`` file or one that cannot be read raises ``ValueError``."""
    for path in paths:
        if "holdout" in Path(path).name:
            raise ValueError(f"{Path(path).name} is held out; fit on dev texts")
    progress = Progress(len(paths), "parsing", stream=stream)
    files = []
    for path in paths:
        try:
            files.append(LabelledFile.load(path))
        except OSError as exc:
            raise ValueError(str(exc)) from exc
        progress.advance()
    progress.finish()
    return files


def examples(file: LabelledFile) -> tuple[list[list[str]], list[str], list[str]]:
    """The features, gold type and name of every found name the gold labels also name
    (the recording pass applies no model, so they do not depend on the shipped one)."""
    rows, labels, found = [], [], []
    for item, (_names, recorded) in zip(file.items, file.recorded, strict=True):
        gold: dict[str, str] = {}
        for name, kind in item.entities:
            gold.setdefault(normalize_name(name), normalize_type(kind))
        for mention, names in recorded:
            kind = gold.get(normalize_name(mention.name))
            if kind:
                rows.append(names)
                labels.append(kind)
                found.append(mention.name)
    return rows, labels, found


def junk_examples(file: LabelledFile) -> tuple[list[list[str]], list[str]]:
    """The typer's features of every name the parser finds, labelled ``name`` when the gold
    labels name it and ``junk`` when they name nothing like it ("Present", "replies", "asset
    team"); a name that is part of a gold name or holds one (a boundary, not junk) is left
    out."""
    rows, labels = [], []
    for gold, recorded in file.recorded:
        for mention, names in recorded:
            found = normalize_name(mention.name)
            if found in gold:
                labels.append("name")
            elif any(found in g or g in found for g in gold):
                continue
            else:
                labels.append("junk")
            rows.append(names)
    return rows, labels


def fit_junk(files: Sequence[LabelledFile]) -> dict | None:
    """The regression that tells a found name the labels name from one they name nothing
    like (``typer.Model.junk``); None without an example of each."""
    rows = [row for file in files for row in file.junk_examples[0]]
    labels = [label for file in files for label in file.junk_examples[1]]
    if len(set(labels)) < 2:
        return None
    return regression.fit(
        rows, labels, ["name", "junk"], l2=typer.L2, steps=typer.STEPS, accelerated=True
    )


def fit_names(files: Sequence[LabelledFile]) -> dict | None:
    """The regression from a name's vector to its type, fitted on every labelled name of
    ``files``; None when the vectors are unavailable."""
    pairs = [pair for file in files for pair in file.gold_names]
    vectors = name_vectors([name for name, _ in pairs])
    kept = [(vectors[name], kind) for name, kind in pairs if name in vectors]
    if not kept:
        return None
    return regression.fit_dense(
        np.array([v for v, _ in kept]),
        [kind for _, kind in kept],
        ENTITY_TYPES,
        l2=typer.NAME_L2,
        steps=typer.NAME_STEPS,
        scale=typer.NAME_SCALE,
        center=True,
    )


def fit_files(
    files: Sequence[LabelledFile], *, vectors: bool = True, junk_filter: bool = True, **settings
) -> dict:
    """The typer fitted on ``files``. With ``vectors`` (and two files or more), each name
    also carries what its vector says, from a name regression fitted on the other files (so
    the typer learns how far to trust it on names it has not seen), and the model keeps one
    fitted on all."""
    rows, labels = [], []
    names = fit_names(files) if vectors and len(files) > 1 else None
    for file in files:
        file_rows, file_labels, found = file.examples
        if names is not None:
            guesser = regression.DenseModel(fit_names([f for f in files if f is not file]))
            found_vectors = name_vectors(found)
            file_rows = [
                row
                + typer.vector_features(
                    guesser.probabilities(found_vectors[name]), _rules_type(row)
                )
                if name in found_vectors
                else row
                for row, name in zip(file_rows, found, strict=True)
            ]
        rows += file_rows
        labels += file_labels
    fitted = typer.fit(rows, labels, **settings)
    if names is not None:
        fitted["names"] = names
    junk = fit_junk(files) if junk_filter else None
    if junk is not None:
        fitted["junk"] = junk
    return fitted


def _rules_type(row: list[str]) -> str:
    return next((f[5:] for f in row if f.startswith("type=")), "other")


def measure(file: LabelledFile, model) -> dict:
    """Entity (name, type) and relationship F1 of the parser on ``file`` with ``model``
    (``False``: without the typer)."""
    return measure_with(file, typer_model=model)


def measure_with(file: LabelledFile, *, digits: int = 3, **models) -> dict:
    """Entity (name, type) and relationship F1 of the parser on ``file`` with ``models``
    (``read_parsed``'s keywords: ``typer_model``, ``thing_model`` ...), to ``digits``."""
    measures = score(file.items, [read_parsed(d, **models) for d in file.docs]).measures
    return {
        "entities_f1": round(measures.entities.f1, digits),
        "relationships_f1": round(measures.relationships.f1, digits),
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
