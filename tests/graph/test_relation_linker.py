"""The parser's relation linker: fitted on labelled pairs of names, it adds the relationship
the words between two names state where the rules found none, never on a negated path,
never in place of a rule's relationship, can be turned off, and is fitted by
``manage.py fit_relation_linker`` on development files only. Below it, the sparse
regression both learned parts share."""

import io
import json
from pathlib import Path

import numpy as np
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import override_settings

from graph.extraction.parser import _Reader, linker, read_parsed, regression, vectors
from memoryhub import nlp

DATA = Path(__file__).resolve().parents[1] / "data" / "extraction"


def _triples(extraction):
    return {(r.source, r.type, r.target) for r in extraction.relationships}


def test_sparse_regression_learns_and_stores_only_weights_of_some_size():
    rows = [["at=join", "t=person|organization"]] * 20 + [["at=visit", "t=person|location"]] * 20
    rows += [["t=person|organization"]] * 20
    labels = ["WORKS_FOR>"] * 20 + ["VISITED>"] * 20 + ["none"] * 20
    fitted = regression.fit(rows, labels, ["none", "VISITED>", "WORKS_FOR>"], l2=0.1, steps=300)
    model = regression.Model(fitted)
    joined = model.probabilities(["at=join", "t=person|organization"])
    assert max(joined, key=joined.get) == "WORKS_FOR>" and joined["WORKS_FOR>"] > 0.8
    assert (
        max(model.probabilities(["t=person|organization"]).items(), key=lambda kv: kv[1])[0]
        == "none"
    )
    assert model.probabilities(["never seen"]).keys() == set(fitted["classes"])
    for row in fitted["weights"].values():  # sparse rows: {class: weight}, none tiny
        assert row and all(abs(w) >= regression.KEPT for w in row.values())


def test_accelerated_descent_reaches_the_optimum_that_plain_descent_stops_short_of():
    rng = np.random.default_rng(7)
    vocabulary = [f"w{i}" for i in range(40)]
    rows = [list(rng.choice(vocabulary, size=4, replace=False)) for _ in range(300)]
    labels = ["yes" if {"w1", "w2"} & set(row) else "none" for row in rows]

    def loss(fitted):
        model = regression.Model(fitted)
        return -np.mean(
            [np.log(model.probabilities(r)[y]) for r, y in zip(rows, labels, strict=True)]
        )

    classes = ["none", "yes"]
    plain = regression.fit(rows, labels, classes, l2=0.1, steps=60, min_count=1)
    fast = regression.fit(rows, labels, classes, l2=0.1, steps=60, min_count=1, accelerated=True)
    assert loss(fast) < loss(plain) - 0.05
    assert linker.ACCELERATED  # the shipped linker is fitted to the optimum


def test_dense_regression_reads_a_vector():
    vectors = np.array([[1.0, 0.0]] * 10 + [[0.0, 1.0]] * 10)
    labels = ["person"] * 10 + ["location"] * 10
    model = regression.DenseModel(
        regression.fit_dense(vectors, labels, ["person", "location"], l2=0.1, steps=200, scale=3)
    )
    assert model.probabilities(np.array([1.0, 0.0]))["person"] > 0.9
    assert model.probabilities(np.array([0.0, 1.0]))["location"] > 0.9


def test_pair_features_read_the_path_the_words_between_and_table_columns():
    reader = _Reader(nlp.parse("Ruth works weekends as a barista at Blue Door Cafe."))
    reader.read()
    pairs = linker.candidates(reader)
    names = pairs[("ruth", "blue door cafe")][2]
    assert "t=person|organization" in names
    assert "at=work" in names and "prep=at" in names
    table = "| Person | Event | City |\n|---|---|---|\n| Rohan | PyCon US | Pittsburgh |\n"
    reader = _Reader(nlp.parse(table))
    reader.read()
    by_pair = {keys: names for keys, (_, _, names) in linker.candidates(reader).items()}
    assert "cols=person|event" in by_pair[("rohan", "pycon us")]


def test_the_words_on_a_path_are_read_with_their_word_groups():
    """A verb is also read as its group (the bundled model's vectors, grouped by k-means),
    so a verb no labelled text used counts as the ones near it."""
    reader = _Reader(nlp.parse("Ruth works weekends as a barista at Blue Door Cafe."))
    reader.read()
    names = linker.candidates(reader)[("ruth", "blue door cafe")][2]
    group = vectors.word_groups(["work"])["work"]
    assert f"atc={group}" in names and f"atc|t={group}|person|organization" in names
    assert not [n for n in names if n.startswith(("atc=x", "atc=y"))]


def test_the_words_between_two_names_are_not_the_names_own_words():
    reader = _Reader(nlp.parse("Giulia: the new place on Via Tortona, Osteria Bruma, opened."))
    reader.read()
    names = linker.candidates(reader)[("via tortona", "osteria bruma")][2]
    assert "adjacent" in names and "bp=," in names
    assert not [n for n in names if n.startswith("bw=")]


def test_word_groups_put_near_words_together():
    fitted = vectors.fit_clusters(
        "wife husband spouse fiance postgres mysql redis sqlite".split(), k=2, iterations=10
    )
    assert fitted["k"] == 2 and len(fitted["centroids"]) == 2
    assert fitted["groups"]["wife"] == fitted["groups"]["husband"] != fitted["groups"]["mysql"]
    centroids = np.asarray(fitted["centroids"])
    found = vectors.word_vectors(["husband", "wife", "mysql", "postgres"])
    group = {w: int(np.argmax(centroids @ v)) for w, v in found.items()}
    assert group["husband"] == group["wife"] != group["mysql"] == group["postgres"]


class _Always:
    """A linker sure that every pair is the first working for the second."""

    add = 0.6

    def probabilities(self, names):
        return {"none": 0.05, "WORKS_FOR>": 0.9, "USES<": 0.05}


def test_link_adds_where_the_rules_found_nothing_and_never_on_a_negated_path():
    doc = nlp.parse("Ruth works weekends as a barista at Blue Door Cafe.")
    assert ("Ruth", "WORKS_FOR", "Blue Door Cafe") in _triples(
        read_parsed(doc, linker_model=_Always())
    )
    negated = nlp.parse("The billing service does not use Kafka.")
    assert not _triples(read_parsed(negated, linker_model=_Always()))
    # a pair the rules relate keeps the rules' relationship alone
    ruled = nlp.parse("Ines works at Shopify.")
    assert _triples(read_parsed(ruled, linker_model=False)) == _triples(
        read_parsed(ruled, linker_model=_Always())
    )


def test_shipped_linker_adds_what_the_words_state_and_can_be_turned_off():
    text = "tue: search-cache failover in eu-west-3, recovered on its own"
    assert ("search-cache", "LOCATED_IN", "eu-west-3") in _triples(read_parsed(nlp.parse(text)))
    assert not _triples(read_parsed(nlp.parse(text), linker_model=False))
    with override_settings(MEMORYHUB_GRAPH=settings.MEMORYHUB_GRAPH | {"relation_linker": False}):
        assert linker.load_model() is None
    assert linker.load_model() is not None


def test_fit_relation_linker_refuses_held_out_files_and_fits_dev_files(tmp_path):
    with pytest.raises(CommandError, match="held out"):
        call_command("fit_relation_linker", "--data", str(DATA / "holdout.jsonl"), "--dry-run")
    with pytest.raises(CommandError, match="--add"):
        call_command("fit_relation_linker", "--data", str(DATA / "dev5.jsonl"), "--add", "1.5")
    out = io.StringIO()
    before = linker.MODEL.read_bytes()
    call_command(
        "fit_relation_linker",
        "--data",
        str(DATA / "dev5.jsonl"),
        str(DATA / "dev4.jsonl"),
        "--cross-validate",
        "--dry-run",
        "--steps",
        "30",
        stdout=out,
        stderr=io.StringIO(),
    )
    text = out.getvalue()
    assert "fitted on" in text and "dev5, dev4" in text
    clusters = vectors.CLUSTERS.read_bytes()
    call_command(
        "fit_relation_linker",
        "--data",
        str(DATA / "dev5.jsonl"),
        "--clusters",
        "--dry-run",
        "--steps",
        "30",
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    assert vectors.CLUSTERS.read_bytes() == clusters  # --dry-run writes no word groups either
    vectors.use_shipped_clusters()
    assert "mean" in text and "without" in text
    assert linker.MODEL.read_bytes() == before  # --dry-run writes nothing
    with pytest.raises(CommandError, match="--data"):
        call_command("fit_relation_linker", "--data", str(tmp_path / "missing.jsonl"), "--dry-run")


def test_a_relationship_between_types_the_labelled_texts_never_join_by_it_is_dropped():
    doc = nlp.parse("Lorna: tell Baby I said hi.\nBaby: hi Lorna!")
    counts = {"INTEGRATES_WITH": {"component|technology": 200, "organization|technology": 100}}
    model = linker.Model({**json.loads(linker.MODEL.read_text()), "type_pairs": counts})
    assert not model.plausible("INTEGRATES_WITH", "person", "person")
    assert model.plausible("INTEGRATES_WITH", "component", "technology")
    assert model.plausible("KNOWS", "person", "person")  # no examples to judge by: kept
    reader = _Reader(doc)
    reader.read()
    lorna = next(m for m in reader.mentions if m.name == "Lorna")
    baby = next(m for m in reader.mentions if m.name == "Baby")
    reader._relate(lorna, baby, "INTEGRATES_WITH", "")
    reader._relate(lorna, baby, "KNOWS", "")
    linker.prune(reader, model=model)
    kept = {r.type for r in reader.relationships.values()}
    assert "INTEGRATES_WITH" not in kept and "KNOWS" in kept
