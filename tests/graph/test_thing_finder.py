"""The parser's learned thing finder: fitted from labelled lower-case phrases, it adds the
things a writer labels that no rule's cue took (dishes in a list, what one cooks or plays),
reads what a phrase's vector says only where that could change its decision, can be turned
off, and is fitted by ``manage.py fit_thing_finder`` on development files only."""

import io
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import override_settings

from bench.entity_typer import LabelledFile
from bench.thing_finder import examples, fit_files
from graph.extraction.parser import ParserExtractor, read_parsed, things
from memoryhub import nlp

DATA = Path(__file__).resolve().parents[1] / "data" / "extraction"


def _entities(extraction):
    return {e.name: e.type for e in extraction.entities}


def test_candidates_are_the_free_lower_case_noun_phrases_with_and_without_adjectives():
    recorded = []
    doc = nlp.parse("Kofi brought roasted veg and a tray of jollof to Ama's flat in Accra.")
    read_parsed(doc, thing_record=recorded)
    phrases = {name for name, _features in recorded}
    assert {"veg", "roasted veg", "jollof"} <= phrases
    assert not {"Kofi", "Accra", "Ama"} & phrases  # names the rules took are no candidates
    features = dict(recorded)["jollof"]
    assert "dep=pobj" in features and "prep=of|tray" in features
    assert "v=B" in dict(recorded)["roasted veg"] and "v=A" in dict(recorded)["veg"]


def _model(weights: dict, bias: list[float]) -> things.Model:
    """A fitted finder over none, other and concept with these weights."""
    return things.Model({"classes": ["none", "other", "concept"], "bias": bias, "weights": weights})


def test_find_adds_a_phrase_the_model_calls_a_thing_with_its_type():
    sure = _model({"h=stamppot": {"none": -4.0, "other": 4.0}}, [3.0, 0.0, -1.0])

    text = "My husband Joost does most of the cooking; his stamppot is unbeatable."
    found = _entities(read_parsed(nlp.parse(text), thing_model=sure))
    assert found.get("stamppot") == "other"
    assert "stamppot" not in _entities(read_parsed(nlp.parse(text), thing_model=False))


def test_a_phrase_whose_context_decides_is_never_embedded(monkeypatch):
    embedded = []
    monkeypatch.setattr(things, "name_vectors", lambda names: embedded.extend(names) or {})

    none_at_all = _model({}, [6.0, 0.0, 0.0])  # no feature, not even a vector's, moves it

    read_parsed(nlp.parse("We grabbed some noodles after the meeting."), thing_model=none_at_all)
    assert embedded == []


def test_shipped_finder_adds_a_dish_from_a_list_and_can_be_turned_off():
    text = "Potluck on Saturday:\n- Meera: biryani and raita\n- Tomás: tres leches"
    parser = ParserExtractor()
    with_finder = _entities(parser.extract(text))
    assert with_finder.get("biryani") == "other"
    with override_settings(MEMORYHUB_GRAPH=settings.MEMORYHUB_GRAPH | {"thing_finder": False}):
        assert things.load_model() is None
        assert "biryani" not in _entities(read_parsed(nlp.parse(text)))
    assert things.load_model() is not None


def test_examples_label_each_phrase_with_its_gold_type_or_none():
    file = LabelledFile.load(DATA / "dev5.jsonl")
    rows, labels, phrases = examples(file)
    assert len(rows) == len(labels) == len(phrases) > 20
    assert set(labels) >= {"none"} and len(set(labels)) > 1
    fitted = things.Model(fit_files([file], steps=20))
    assert fitted.classes[0] == "none" and fitted.add == things.ADD


def test_fit_thing_finder_refuses_held_out_files_and_fits_dev_files(tmp_path):
    with pytest.raises(CommandError, match="held out"):
        call_command("fit_thing_finder", "--data", str(DATA / "holdout.jsonl"), "--dry-run")
    before = things.MODEL.read_bytes()
    out = io.StringIO()
    call_command(
        "fit_thing_finder",
        "--data",
        str(DATA / "dev5.jsonl"),
        str(DATA / "dev4.jsonl"),
        "--hold-out",
        "1",
        "--dry-run",
        "--steps",
        "20",
        stdout=out,
        stderr=io.StringIO(),
    )
    text = out.getvalue()
    assert "held out dev4" in text and "without" in text and "fitted on" in text
    assert things.MODEL.read_bytes() == before  # --dry-run writes nothing
    with pytest.raises(CommandError, match="--hold-out"):
        call_command("fit_thing_finder", "--data", str(DATA / "dev5.jsonl"), "--hold-out", "1")
    with pytest.raises(CommandError, match="--data"):
        call_command("fit_thing_finder", "--data", str(tmp_path / "missing.jsonl"), "--dry-run")
