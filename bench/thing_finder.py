"""Fitting and measuring the learned thing finder (``graph.extraction.parser.things``).

The examples are the free lower-case noun phrases the parser extractor reads in the
labelled development texts, each with its features at the point where the finder reads it,
labelled with the gold type of the name it is (its normalised name equal to a gold name's)
or none. ``hold_out`` fits on all files but the newest few and scores the extractor on
those with and without the model (the newest writers are the most like new text).
"""

from collections.abc import Sequence

from bench.entity_typer import LabelledFile, fit_names, measure_with
from graph.extraction.parser import read_parsed, regression, things, typer
from graph.extraction.parser.vectors import name_vectors
from graph.vocabulary import normalize_name, normalize_type
from memoryhub.progress import Progress


def examples(file: LabelledFile) -> tuple[list[list[str]], list[str], list[str]]:
    """Read once per file (``LabelledFile.cache``): every candidate phrase's features, its
    gold type or ``none``, and the phrase."""
    if "things" not in file.cache:
        rows, labels, phrases = [], [], []
        for item, doc in zip(file.items, file.docs, strict=True):
            gold: dict[str, str] = {}
            for name, kind in item.entities:
                gold.setdefault(normalize_name(name), normalize_type(kind))
            recorded: list = []
            read_parsed(doc, thing_record=recorded)
            for name, names in recorded:
                rows.append(names)
                labels.append(gold.get(normalize_name(name), things.NONE))
                phrases.append(name)
        file.cache["things"] = (rows, labels, phrases)
    return file.cache["things"]


# The development files are split into this many folds; each fold's phrases are read by a
# name regression fitted on the other folds' labelled names, so that the finder learns how
# far to trust what a vector says of a phrase no regression saw (as the typer does).
FOLDS = 4


def fit_files(
    files: Sequence[LabelledFile], *, stream=None, vectors: bool = True, **settings
) -> dict:
    """The finder fitted on ``files`` (each file's phrases read once, with progress); with
    ``vectors``, each phrase also carries what its vector says (``typer.vector_guess``)."""
    progress = Progress(len(files), "reading phrases", stream=stream)
    read = []
    for file in files:
        read.append(examples(file))
        progress.advance()
    progress.finish()
    rows, labels = [], []
    folds = min(FOLDS, len(files)) if vectors else 1
    for fold in range(folds):
        members = [n for n in range(len(files)) if n % folds == fold]
        guesser = None
        if folds > 1:
            fitted = fit_names([f for n, f in enumerate(files) if n % folds != fold])
            guesser = regression.DenseModel(fitted) if fitted else None
        phrases = [p for n in members for p in read[n][2]]
        found = name_vectors(phrases) if guesser else {}
        for n in members:
            for row, label, phrase in zip(*read[n], strict=True):
                if phrase in found:
                    row = row + typer.vector_guess(guesser.probabilities(found[phrase]))
                rows.append(row)
                labels.append(label)
    return things.fit(rows, labels, **settings)


def measure(file: LabelledFile, model) -> dict:
    """Entity (name, type) and relationship F1 of the parser on ``file`` with ``model``
    (``False``: without the finder)."""
    return measure_with(file, digits=4, thing_model=model)


def hold_out(
    files: Sequence[LabelledFile],
    newest: int,
    *,
    thresholds=(0.4, 0.5, 0.6),
    stream=None,
    **settings,
) -> dict:
    """The finder fitted on all ``files`` but the ``newest`` last ones, scored on those
    together: ``{"without": figures, threshold: figures, ...}``."""
    if not 0 < newest < len(files):
        raise ValueError(f"hold out 1 to {len(files) - 1} files, not {newest}")
    fitted = fit_files(files[:-newest], stream=stream, **settings)
    held = files[-newest:]
    joined = LabelledFile(
        "+".join(f.name for f in held),
        [i for f in held for i in f.items],
        [d for f in held for d in f.docs],
    )
    out = {"without": measure(joined, False)}
    for threshold in thresholds:
        out[threshold] = measure(joined, things.Model({**fitted, "add": threshold}))
    return out
