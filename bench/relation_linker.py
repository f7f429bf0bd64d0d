"""Fitting and measuring the relation linker (``graph.extraction.parser.linker``).

The examples are the pairs of names the parser extractor reads in one sentence of a
labelled development text, each with its features and, as its label, the gold
relationship between the two names ("WORKS_FOR>" when the first named works for the
second, "WORKS_FOR<" the other way round) or "none". ``cross_validate`` holds out one
labelled file at a time (each was written by a different hand): it fits on the others and
scores the extractor on the held-out file without the linker and with it at each
threshold.
"""

from collections.abc import Callable, Sequence

from bench.entity_typer import LabelledFile
from bench.extraction import score
from graph.extraction.parser import linker, read_parsed
from graph.vocabulary import normalize_name, normalize_relation_type, normalize_type

THRESHOLDS = (0.2, 0.25, 0.3, 0.4, 0.5, 0.6)


# The parts of speech whose words the linker's word groups are fitted on.
GROUPED_POS = {"VERB", "NOUN", "ADP", "ADJ", "AUX", "PROPN"}


def vocabulary(files: Sequence[LabelledFile]) -> list[str]:
    """The lemmas the word groups are fitted on: every word of these parts of speech in the
    files' texts."""
    return sorted(
        {
            token.lemma_.lower()
            for file in files
            for doc in file.docs
            for token in doc
            if token.is_alpha and token.pos_ in GROUPED_POS
        }
    )


def examples(file: LabelledFile) -> tuple[list[list[str]], list[str]]:
    """The features and gold label of every candidate pair in ``file`` (read once per
    file and kept on it)."""
    cached = file.cache.get("linker")
    if cached is not None:
        return cached
    rows, labels = [], []
    for item, doc in zip(file.items, file.docs, strict=True):
        gold: dict[tuple[str, str], str] = {}
        for source, relation, target in item.relationships:
            key = (normalize_name(source), normalize_name(target))
            gold.setdefault(key, normalize_relation_type(relation))
        recorded: list = []
        read_parsed(doc, linker_record=recorded)
        for first, second, names in recorded:
            a, b = normalize_name(first), normalize_name(second)
            if (a, b) in gold:
                labels.append(linker.label(gold[(a, b)], True))
            elif (b, a) in gold:
                labels.append(linker.label(gold[(b, a)], False))
            else:
                labels.append(linker.NONE)
            rows.append(names)
    file.cache["linker"] = (rows, labels)
    return rows, labels


def type_pairs(files: Sequence[LabelledFile]) -> dict[str, dict[str, int]]:
    """How often each relationship joins each pair of types in the files' gold labels:
    ``{"WORKS_FOR": {"person|organization": 1210, ...}}``."""
    counts: dict[str, dict[str, int]] = {}
    for file in files:
        for item in file.items:
            types = {normalize_name(name): normalize_type(kind) for name, kind in item.entities}
            for source, relation, target in item.relationships:
                pair = (types.get(normalize_name(source)), types.get(normalize_name(target)))
                if None in pair:
                    continue
                row = counts.setdefault(normalize_relation_type(relation), {})
                key = "|".join(pair)
                row[key] = row.get(key, 0) + 1
    return counts


def fit_files(files: Sequence[LabelledFile], **settings) -> dict:
    rows, labels = [], []
    for file in files:
        file_rows, file_labels = examples(file)
        rows += file_rows
        labels += file_labels
    return {**linker.fit(rows, labels, **settings), "type_pairs": type_pairs(files)}


def measure(file: LabelledFile, model) -> dict:
    """Relationship P/R/F1 of the parser on ``file`` with ``model`` (``False``: none)."""
    found = [read_parsed(d, linker_model=model) for d in file.docs]
    relations = score(file.items, found).measures.relationships
    return {
        "precision": round(relations.precision, 3),
        "recall": round(relations.recall, 3),
        "f1": round(relations.f1, 3),
    }


def cross_validate(
    files: Sequence[LabelledFile],
    *,
    thresholds: Sequence[float] = THRESHOLDS,
    on_file: Callable = None,
    **settings,
) -> list[dict]:
    """Per held-out file: relationship figures without the linker and with one fitted on
    the other files, at each threshold."""
    rows = []
    for held in files:
        fitted = fit_files([f for f in files if f is not held], **settings)
        row = {"file": held.name, "without": measure(held, False), "with": {}}
        for threshold in thresholds:
            row["with"][threshold] = measure(held, linker.Model({**fitted, "add": threshold}))
        rows.append(row)
        if on_file:
            on_file(row)
    return rows
