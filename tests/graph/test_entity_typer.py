"""The parser's learned entity typer: fitted from labelled names, it gives a name the type
its context states where the rules guessed, never touches a pattern's type, can be turned
off, and is fitted by ``manage.py fit_entity_typer`` on development files only."""

import io
import json
from pathlib import Path

import numpy as np
import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from graph.extraction.parser import ParserExtractor, read_parsed, typer, vectors
from graph.extraction.parser.rules import Mention
from memoryhub import nlp

DATA = Path(__file__).resolve().parents[1] / "data" / "extraction"


def _types(extraction):
    return {e.name: e.type for e in extraction.entities}


def test_fit_learns_a_type_from_context_and_keeps_the_rules_type_within_the_margin():
    rows = [["p1=in", "type=organization"]] * 12 + [["p1=at", "type=organization"]] * 12
    labels = ["location"] * 12 + ["organization"] * 12
    model = typer.Model(typer.fit(rows, labels, margin=0.1))
    assert (
        max(model.probabilities(["p1=in", "type=organization"]).items(), key=lambda kv: kv[1])[0]
        == "location"
    )
    assert model.probabilities(["p1=at"])["organization"] > 0.8
    assert model.margin == 0.1
    assert set(model.types) == {"location", "organization"}


def test_retype_changes_a_guessed_type_and_never_a_patterns(monkeypatch):
    doc = nlp.parse("Ilse (9:02 am on 3 May, 2024): we drove up to Saariselkä.")
    place = doc.text.index("Saariselkä")
    guessed = Mention(place, place + len("Saariselkä"), "Saariselkä", "organization", 0.6, "ner")
    speaker = Mention(0, 4, "Ilse", "person", 0.9, "speaker")

    class Always:
        margin = 0.1

        def probabilities(self, names):
            return {"location": 0.9, "organization": 0.05, "person": 0.05}

    typer.retype(doc, [guessed, speaker], model=Always())
    assert guessed.type == "location"
    assert speaker.type == "person"  # a dialogue's speaker keeps the pattern's type
    recorded = []
    typer.retype(doc, [guessed, speaker], record=recorded)
    assert [m.name for m, _ in recorded] == ["Saariselkä"]
    assert "p1=to" in recorded[0][1] and "ent|type=" in " ".join(recorded[0][1])


def test_a_name_the_junk_regression_finds_junk_is_dropped_with_its_relationships():
    text = "Present: Kwame Asante, who works at Zipline in Accra."
    doc = nlp.parse(text)
    shipped = typer.shipped()
    plain = read_parsed(doc, typer_model=shipped)
    assert "Zipline" in _types(plain)

    class JunkZipline:
        classes = ["name", "junk"]

        def probabilities(self, names):
            junk = 0.9 if "w=zipline" in names else 0.1
            return {"name": 1 - junk, "junk": junk}

    model = typer.Model(
        {
            "types": shipped.types,
            "bias": list(shipped.bias),
            "weights": {},
            "junk": {"classes": ["name", "junk"], "bias": [0, 0], "weights": {}},
        }
    )
    model.junk = JunkZipline()
    extraction = read_parsed(nlp.parse(text), typer_model=model)
    assert "Zipline" not in _types(extraction) and "Kwame Asante" in _types(extraction)
    assert not any("Zipline" in (r.source, r.target) for r in extraction.relationships)


def test_the_junk_regression_is_fitted_on_found_names_the_labels_do_not_name():
    from bench.entity_typer import LabelledFile, fit_junk

    files = [LabelledFile.load(DATA / "dev5.jsonl"), LabelledFile.load(DATA / "dev4.jsonl")]
    rows, labels = files[0].junk_examples
    assert len(rows) == len(labels) and set(labels) == {"name", "junk"}
    assert labels.count("name") > labels.count("junk")
    fitted = fit_junk(files)
    assert fitted["classes"] == ["name", "junk"] and fitted["weights"]
    assert typer.shipped().junk is not None  # the shipped typer carries one


def test_shipped_typer_reads_a_kinship_word_and_can_be_turned_off():
    text = "My aunt Sirpa drives up from Tampere every Sunday."
    parser = ParserExtractor()
    assert _types(read_parsed(nlp.parse(text)))["Sirpa"] == "person"
    assert _types(read_parsed(nlp.parse(text), typer_model=False))["Sirpa"] != "person"
    from django.conf import settings

    with override_settings(MEMORYHUB_GRAPH=settings.MEMORYHUB_GRAPH | {"entity_typer": False}):
        assert typer.load_model() is None
        assert _types(parser.extract(text))["Sirpa"] != "person"
    assert typer.load_model() is not None


def test_fit_entity_typer_refuses_held_out_files_and_fits_dev_files(tmp_path, monkeypatch):
    with pytest.raises(CommandError, match="held out"):
        call_command("fit_entity_typer", "--data", str(DATA / "holdout.jsonl"), "--dry-run")
    out = io.StringIO()
    before = typer.MODEL.read_bytes()
    call_command(
        "fit_entity_typer",
        "--data",
        str(DATA / "dev5.jsonl"),
        "--dry-run",
        "--steps",
        "50",
        stdout=out,
        stderr=io.StringIO(),
    )
    assert "fitted on" in out.getvalue() and "dev5" in out.getvalue()
    assert typer.MODEL.read_bytes() == before  # --dry-run writes nothing
    with pytest.raises(CommandError, match="--data"):
        call_command("fit_entity_typer", "--data", str(tmp_path / "missing.jsonl"), "--dry-run")


def test_name_vectors_feed_the_typer_what_a_name_looks_like():
    found = vectors.name_vectors(["Zalando", "Kuopio"])
    assert set(found) == {"Zalando", "Kuopio"} and found["Zalando"].shape == (384,)
    assert vectors.name_vectors(["Zalando"])["Zalando"] is found["Zalando"]  # once per name
    features = typer.vector_features({"location": 0.85, "person": 0.1, "other": 0.05}, "person")
    assert features == ["vec=location", "vec=location|high", "vec|type=location|person"]
    model = typer.shipped()
    assert model.names is not None and len(model.names.weights) == 384
    guess = model.names.probabilities(vectors.name_vectors(["eu-west-1"])["eu-west-1"])
    assert max(guess, key=guess.get) == "location"


def test_names_are_embedded_by_the_multilingual_model_and_centred_before_the_regression():
    from graph.extraction.parser import regression

    assert vectors.name_model_status()["model"].startswith("multilingual-e5-small")
    found = vectors.name_vectors(["Panader\u00eda La Estrella", "Bakery of the Star"])
    a, b = found["Panader\u00eda La Estrella"], found["Bakery of the Star"]
    assert abs(float(a @ a) - 1) < 1e-3 and float(a @ b) > 0.7  # one meaning, two languages
    fitted = regression.fit_dense(
        [[1.0, 0.0, 0.9], [0.9, 0.1, 1.0], [0.0, 1.0, 0.95], [0.1, 0.9, 0.9]],
        ["place", "place", "person", "person"],
        ["place", "person"],
        l2=0.01,
        steps=200,
        scale=5.0,
        center=True,
    )
    assert fitted["center"] == pytest.approx([0.5, 0.5, 0.9375])
    model = regression.DenseModel(fitted)
    guess = model.probabilities(np.array([0.95, 0.05, 0.9]))
    assert guess["place"] > 0.9


def test_names_embedded_from_several_threads_get_the_vectors_of_one_thread():
    import threading

    names = [f"Kestrel {i} Holdings" for i in range(40)]
    alone = {n: vectors.name_vectors([n])[n].copy() for n in names}
    vectors.forget_name_vectors()
    threads = [
        threading.Thread(target=lambda k=k: [vectors.name_vectors([n]) for n in names[k::4]])
        for k in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    together = vectors.name_vectors(names)
    assert all(np.allclose(together[n], alone[n], atol=1e-6) for n in names)


def test_without_the_name_model_the_typer_reads_the_context_alone(monkeypatch, anon_client, db):
    from memoryhub.providers import e5

    monkeypatch.setattr(e5, "_state", {"model": None, "error": "ImportError: x"})
    vectors.forget_name_vectors()
    assert vectors.name_vectors(["Zalando"]) == {}
    status = vectors.name_model_status()
    assert status["loaded"] is False and "ImportError" in status["error"]
    extraction = ParserExtractor().extract("Tomasz Nowak works at Zalando in Kuopio.")
    assert _types(extraction)["Tomasz Nowak"] == "person"
    body = anon_client.get("/api/v1/health").json()
    assert "ImportError" in body["extraction"]["name_vectors"]["error"]


def test_fit_files_adds_the_vector_features_from_the_other_files():
    from bench.entity_typer import LabelledFile, fit_files

    files = [LabelledFile.load(DATA / "dev5.jsonl"), LabelledFile.load(DATA / "dev4.jsonl")]
    fitted = fit_files(files, steps=30)
    assert fitted["names"]["classes"] and len(fitted["names"]["weights"]) == 384
    assert len(fitted["names"]["center"]) == 384
    assert any(name.startswith("vec=") for name in fitted["weights"])
    plain = fit_files(files, steps=30, vectors=False)
    assert "names" not in plain and not any(n.startswith("vec=") for n in plain["weights"])


def test_a_name_whose_context_decides_its_type_is_never_embedded(monkeypatch):
    """``Model.settled`` tries every feature set a vector can add: where it names a type, the
    name's real vector gives that same type, and such a name is not sent to the model."""
    model = typer.shipped()
    texts = [
        json.loads(line)["text"] for line in (DATA / "dev5.jsonl").read_text().splitlines()[:12]
    ]
    recorded = []
    for text in texts:
        doc = nlp.parse(text)
        read_parsed(doc, typer_record=recorded)
    settled = 0
    for mention, names in recorded:
        vector = vectors.name_vectors([mention.name])[mention.name]
        with_vector = names + typer.vector_features(model.names.probabilities(vector), mention.type)
        probabilities = model.probabilities(with_vector)
        best = max(probabilities, key=probabilities.get)
        expected = (
            best
            if best != mention.type
            and probabilities[best] >= probabilities.get(mention.type, 0.0) + model.margin
            else mention.type
        )
        decided = model.settled(names, mention.type, model.margin)
        if decided is not None:
            settled += 1
            assert decided == expected, mention.name
    assert 0 < settled < len(recorded)

    asked = []
    real = vectors.name_vectors
    monkeypatch.setattr(typer, "name_vectors", lambda names: asked.extend(names) or real(names))
    vectors.forget_name_vectors()
    for text in texts:
        read_parsed(nlp.parse(text))
    typed = {m.name for m, _ in recorded}
    assert set(asked) <= typed and len(set(asked)) < len(typed)


def test_the_quick_extraction_reads_no_name_vector_and_finds_the_same_names(monkeypatch):
    import threading

    from graph.extraction.parser import ParserExtractor

    text = "Tomasz Nowak works at Zalando in Kuopio and deploys the ledger-api with Terraform."
    extractor = ParserExtractor()
    whole = extractor.extract(text)
    vectors.forget_name_vectors()
    embedded = []
    real = vectors._embedder()
    monkeypatch.setitem(vectors._embedder_state, "embedder", real)
    monkeypatch.setattr(real, "embed_documents", lambda names: embedded.extend(names) or [])
    monkeypatch.setattr(vectors, "name_model", lambda: pytest.fail("a name was embedded"))
    quick = extractor.extract_quick(text)
    assert embedded == []
    assert {e.name for e in quick.entities} == {e.name for e in whole.entities}
    with vectors.without_name_vectors():
        assert vectors.name_vectors(["Zalando"]) == {}
        other = {}
        thread = threading.Thread(target=lambda: other.update(on=vectors._context_only.__dict__))
        thread.start()
        thread.join()
        assert other["on"] == {}  # another thread still reads the names' vectors
    assert vectors._context_only.on is False


def test_doubted_rows_teach_the_typer_that_the_rules_type_can_be_wrong():
    rows = [["type=organization", "cued=False|organization", "ent|type=GPE|organization", "w=x"]]
    rows = rows * 50 + [["type=organization", "cued=True|organization", "w=y"]] * 50
    labels = ["location"] * 100
    doubled, doubled_labels = typer.doubted(rows, labels, 0.3)
    extra = doubled[100:]
    assert 5 < len(extra) < 30 and doubled_labels == labels + ["location"] * len(extra)
    for row in extra:  # the type changes in every feature that carries it, nothing else
        other = row[0].removeprefix("type=")
        assert other != "organization"
        assert row == [f"type={other}", f"cued=False|{other}", f"ent|type=GPE|{other}", "w=x"]
    assert typer.doubted(rows, labels, 0.3) == (doubled, doubled_labels)  # seeded
    assert typer.doubted(rows, labels, 0) == (rows, labels)


def test_the_context_words_are_read_with_their_word_groups():
    from graph.extraction.parser.vectors import word_groups

    doc = nlp.parse("We had dinner at Sushi Hana with Ines.")
    start = doc.text.index("Sushi Hana")
    mention = Mention(start, start + len("Sushi Hana"), "Sushi Hana", "person", 0.6, "ner")
    mention.root = doc.char_span(start, start + len("Sushi Hana")).root.i
    names = typer.features(doc, mention)
    attached = doc[mention.root].head.head.lemma_.lower()  # what "at" hangs from
    groups = word_groups(["at", "with", attached])
    assert f"p1g={groups['at']}" in names and f"n1g={groups['with']}" in names
    assert f"headg|pobj={groups['at']}" in names and f"prepg|at={groups[attached]}" in names
