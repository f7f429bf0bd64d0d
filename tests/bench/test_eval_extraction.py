"""Extraction measured: the scoring on hand-made gold/extraction pairs with known answers,
and ``eval_extraction`` on a tiny labelled file and a tiny LoCoMo conversation."""

import json
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bench.extraction import (
    WARM_UP_TEXT,
    Counts,
    LabelledText,
    extract_all,
    load_labelled,
    locomo_turns,
    pooled,
    profile,
    resolve_extractor,
    score,
    score_text,
)
from graph.extraction.base import (
    ExtractedEntity,
    ExtractedRelationship,
    Extraction,
    ExtractionError,
    Extractor,
)
from graph.extraction.heuristic import HeuristicExtractor


def _gold(id_, style, entities, relationships=()):
    return LabelledText(
        id=id_, style=style, text=f"text {id_}", entities=entities, relationships=relationships
    )


def _found(entities, relationships=()):
    return Extraction(
        entities=[ExtractedEntity(name=n, type=t) for n, t in entities],
        relationships=[
            ExtractedRelationship(source=s, type=r, target=o) for s, r, o in relationships
        ],
    )


# A: a wrong type, an entity too many, a relation found with the wrong type (5 errors).
# B: nothing found (3 errors). C: everything found, the type in free form (0 errors).
GOLD = [
    _gold(
        "a",
        "facts",
        (("Alice", "person"), ("billing service", "component"), ("Redis", "technology")),
        (("Alice", "OWNS", "billing service"), ("billing service", "USES", "Redis")),
    ),
    _gold(
        "b", "chat", (("Bob", "person"), ("Berlin", "location")), (("Bob", "LIVES_IN", "Berlin"),)
    ),
    _gold("c", "chat", (("Kafka", "technology"),)),
]
FOUND = [
    _found(
        (
            ("alice", "person"),
            ("Billing Services", "component"),
            ("Redis", "concept"),
            ("Tuesday", "event"),
        ),
        (("Alice", "owns", "billing service"), ("billing service", "DEPENDS_ON", "Redis")),
    ),
    _found(()),
    _found((("Kafka", "framework"),)),
]


def _prf(counts):
    return (round(counts.precision, 4), round(counts.recall, 4), round(counts.f1, 4))


def test_it_scores_one_text_after_normalising_names_and_types():
    result = score_text(GOLD[0], FOUND[0])
    assert (
        result.measures.entities.tp,
        result.measures.entities.fp,
        result.measures.entities.fn,
    ) == (2, 2, 1)
    assert (result.measures.entity_names.tp, result.measures.entity_names.fp) == (3, 1)
    assert result.measures.entity_names.fn == 0
    assert (result.measures.relationships.tp, result.measures.relationships.fp) == (1, 1)
    assert result.measures.relationships.fn == 1
    assert (result.measures.relationship_pairs.tp, result.measures.relationship_pairs.fp) == (2, 0)
    assert result.entity_false_positives == [("redis", "concept"), ("tuesday", "event")]
    assert result.entity_misses == [("redis", "technology")]
    assert result.relationship_false_positives == [("billing service", "DEPENDS_ON", "redis")]
    assert result.relationship_misses == [("billing service", "USES", "redis")]
    assert result.confusion == Counter({("technology", "concept"): 1})
    assert result.errors == 5


def test_it_micro_averages_over_all_texts_typed_and_untyped():
    measures = score(GOLD, FOUND).measures
    assert _prf(measures.entities) == (0.6, 0.5, 0.5455)  # tp 3, fp 2, fn 3
    assert _prf(measures.entity_names) == (0.8, 0.6667, 0.7273)  # tp 4, fp 1, fn 2
    assert _prf(measures.relationships) == (0.5, 0.3333, 0.4)  # tp 1, fp 1, fn 2
    assert _prf(measures.relationship_pairs) == (1.0, 0.6667, 0.8)  # tp 2, fp 0, fn 1


def test_it_scores_per_style():
    result = score(GOLD, FOUND)
    assert list(result.by_style) == ["chat", "facts"]
    assert result.style_sizes == {"chat": 2, "facts": 1}
    chat = result.by_style["chat"]
    assert (chat.entities.tp, chat.entities.fp, chat.entities.fn) == (1, 0, 2)
    assert _prf(chat.entities) == (1.0, 0.3333, 0.5)
    assert _prf(chat.relationships) == (1.0, 0.0, 0.0)  # nothing claimed, one missed
    assert _prf(result.by_style["facts"].entities) == (0.5, 0.6667, 0.5714)


def test_it_counts_type_confusion_only_for_names_found_with_none_of_their_types():
    gold = _gold("d", "facts", (("Initech", "organization"), ("Oslo", "location")))
    found = _found((("Initech", "concept"), ("Oslo", "location"), ("Oslo", "person")))
    assert score([gold, *GOLD], [found, *FOUND]).confusion == Counter(
        {("organization", "concept"): 1, ("technology", "concept"): 1}
    )


def test_it_lists_the_worst_texts_first_and_leaves_out_the_perfect_ones():
    result = score(GOLD, FOUND)
    assert [(t.id, t.errors) for t in result.worst(5)] == [("a", 5), ("b", 3)]
    assert [t.id for t in result.worst(1)] == ["a"]
    assert result.worst(1)[0].as_dict()["entity_misses"] == [["redis", "technology"]]


def test_it_refuses_extractions_that_do_not_match_the_texts():
    with pytest.raises(ValueError, match="3 labelled texts but 2 extractions"):
        score(GOLD, FOUND[:2])


def test_counts_when_there_is_nothing_to_find_or_nothing_claimed():
    assert _prf(Counts()) == (1.0, 1.0, 1.0)
    assert _prf(Counts(fn=2)) == (1.0, 0.0, 0.0)
    assert _prf(Counts(fp=2)) == (0.0, 1.0, 0.0)


def test_it_pools_splits_into_one():
    first, second = score(GOLD[:1], FOUND[:1]), score(GOLD[1:], FOUND[1:])
    runs = [extract_all(_Fake(), ["x"]), extract_all(_Fake(), ["y", "z"])]
    result, run = pooled([first, second], runs)
    assert result.measures == score(GOLD, FOUND).measures
    assert len(run.extractions) == 3 and run.seconds == runs[0].seconds + runs[1].seconds


def test_it_loads_a_labelled_file_and_names_a_bad_line(tmp_path):
    path = tmp_path / "tiny.jsonl"
    path.write_text(
        json.dumps(
            {
                "id": "x1",
                "style": "chat",
                "text": "Bob lives in Berlin.",
                "entities": [["Bob", "person"]],
                "relationships": [["Bob", "LIVES_IN", "Berlin"]],
            }
        )
        + "\n\n"
        + json.dumps({"text": "Nothing here.", "entities": [], "relationships": []})
        + "\n"
    )
    items = load_labelled(path)
    assert [(i.id, i.style) for i in items] == [("x1", "chat"), ("tiny:3", "")]
    assert items[0].relationships == (("Bob", "LIVES_IN", "Berlin"),)
    path.write_text(path.read_text() + '{"entities": []}\n')
    with pytest.raises(ValueError, match="line 4"):
        load_labelled(path)


class _Fake(Extractor):
    """Finds each text as one concept; fails on texts containing "bad"; counts calls."""

    name = "fake"

    def __init__(self):
        self.calls = []

    def extract(self, text):
        self.calls.append(("one", text))
        if "bad" in text:
            raise ExtractionError("bad text")
        return _found(((text, "concept"),))

    def extract_many(self, texts):
        self.calls.append(("many", tuple(texts)))
        if any("bad" in t for t in texts):
            raise ExtractionError("bad batch")
        return [_found(((t, "concept"),)) for t in texts]


def test_it_warms_up_then_extracts_in_batches_and_survives_a_failing_text():
    fake, advanced = _Fake(), []
    run = extract_all(fake, ["a", "b", "bad", "c", "d"], batch_size=2, on_batch=advanced.append)
    assert fake.calls[0] == ("one", WARM_UP_TEXT)
    assert ("many", ("a", "b")) in fake.calls and ("many", ("d",)) in fake.calls
    assert [e.entities[0].name if e.entities else None for e in run.extractions] == [
        "a",
        "b",
        None,
        "c",
        "d",
    ]
    assert run.failures == 1 and advanced == [2, 2, 1] and run.ms_per_text() >= 0


def test_it_profiles_unlabelled_texts():
    extractions = [
        _found((("Caroline", "person"), ("caroline", "person"), ("Pottery", "concept"))),
        _found(
            (("Caroline", "person"), ("Caroline", "concept")), (("Caroline", "LIKES", "Pottery"),)
        ),
        _found(()),
        _found((("Melanie", "person"),)),
    ]
    result = profile(extractions, seconds=0.002)
    assert (result.texts, result.entities, result.relationships) == (4, 5, 1)
    assert result.per_100(result.entities) == 125.0 and result.ms_per_text() == 0.5
    assert result.type_shares() == {"person": 0.6, "concept": 0.4}
    assert result.top(2) == [("caroline", 2, ["person", "concept"]), ("melanie", 1, ["person"])]
    assert result.as_dict(1)["distinct_names"] == 3


def test_it_skips_an_llm_without_a_url_and_refuses_unknown_names(settings):
    settings.MEMORYHUB_LLM = {**settings.MEMORYHUB_LLM, "url": None}
    assert resolve_extractor("llm") == (None, "MEMORYHUB_LLM_URL is not set")
    extractor, reason = resolve_extractor("heuristic")
    assert extractor.name == "heuristic" and reason is None
    with pytest.raises(ValueError, match="unknown extractor"):
        resolve_extractor("magic")


# --- the command ---------------------------------------------------------------------------

TINY = [
    {
        "id": "t1",
        "style": "technical",
        "text": (
            "Alice Chen owns the billing service. The billing service uses PostgreSQL and Redis."
        ),
        "entities": [
            ["Alice Chen", "person"],
            ["billing service", "component"],
            ["PostgreSQL", "technology"],
            ["Redis", "technology"],
        ],
        "relationships": [
            ["Alice Chen", "OWNS", "billing service"],
            ["billing service", "USES", "PostgreSQL"],
            ["billing service", "USES", "Redis"],
        ],
    },
    {
        "id": "t2",
        "style": "facts",
        "text": "Deepak Rao works for Acme Corp in Berlin.",
        # Globex and LIVES_IN are not in the text: one entity and one relation missed.
        "entities": [
            ["Deepak Rao", "person"],
            ["Acme Corp", "organization"],
            ["Berlin", "location"],
            ["Globex", "organization"],
        ],
        "relationships": [
            ["Deepak Rao", "WORKS_FOR", "Acme Corp"],
            ["Deepak Rao", "LIVES_IN", "Berlin"],
        ],
    },
]


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.jsonl"
    path.write_text("".join(json.dumps(item) + "\n" for item in TINY))
    return path


def _call(*args):
    out, err = StringIO(), StringIO()
    call_command("eval_extraction", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_it_prints_a_row_of_figures_per_extractor_and_split(tiny, settings):
    settings.MEMORYHUB_LLM = {**settings.MEMORYHUB_LLM, "url": None}
    out, err = _call(
        "--extractor", "heuristic,llm", "--data", str(tiny), "--by-style", "--errors", "1"
    )
    row = next(line for line in out.splitlines() if line.startswith("heuristic  tiny"))
    # entities 7 of 8 (typed and by name), relations 4 of 5 (typed and as pairs), no false ones
    assert (
        row.split()[2:15]
        == ["2"] + ["1.000", "0.875", "0.933"] * 2 + ["1.000", "0.800", "0.889"] * 2
    )
    assert any(line.split()[:1] == ["facts"] and "0.750" in line for line in out.splitlines())
    assert "types confused (gold → found): none" in out
    assert "[t2] facts, 2 errors" in out and "- entities: globex (organization)" in out
    assert "skipping llm: MEMORYHUB_LLM_URL is not set" in err
    assert "heuristic on tiny" in err  # the progress bar


def test_it_prints_json(tiny):
    out, _ = _call("--extractor", "heuristic", "--data", str(tiny), str(tiny), "--json")
    reports = json.loads(out)
    assert [(r["extractor"], r["split"], r["texts"]) for r in reports] == [
        ("heuristic", "tiny", 2),
        ("heuristic", "tiny", 2),
        ("heuristic", "all", 4),
    ]
    assert reports[2]["entities"] == {
        "tp": 14,
        "fp": 0,
        "fn": 2,
        "precision": 1.0,
        "recall": 0.875,
        "f1": 0.9333,
    }
    assert reports[0]["relationship_pairs"]["recall"] == 0.8
    assert reports[0]["by_style"]["facts"]["texts"] == 1 and reports[0]["ms_per_text"] >= 0


def test_it_names_a_missing_data_file(tmp_path):
    with pytest.raises(CommandError, match="labelled data not found: .*nowhere.jsonl"):
        _call("--extractor", "heuristic", "--data", str(tmp_path / "nowhere.jsonl"))


def test_it_refuses_unknown_extractors_and_says_when_none_can_run(tiny, settings):
    settings.MEMORYHUB_LLM = {**settings.MEMORYHUB_LLM, "url": None}
    with pytest.raises(CommandError, match="unknown extractor magic"):
        _call("--extractor", "heuristic,magic", "--data", str(tiny))
    with pytest.raises(CommandError, match="none of the extractors"):
        _call("--extractor", "llm", "--data", str(tiny))


CONVERSATION = {
    "speaker_a": "Caroline",
    "speaker_b": "Melanie",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [
        {"speaker": "Caroline", "dia_id": "D1:1", "text": "I went hiking in Berlin."},
        {"speaker": "Melanie", "dia_id": "D1:2", "text": "Nice, I stayed home."},
    ],
    "session_2_date_time": "2:10 pm on 9 May, 2023",
    "session_2": [
        {
            "speaker": "Caroline",
            "dia_id": "D2:1",
            "text": "We use Kafka at work.",
            "blip_caption": "a photo of a cat",
        },
    ],
}


def test_it_profiles_the_locomo_turns_as_they_are_stored(tmp_path):
    (tmp_path / "99.json").write_text(json.dumps(CONVERSATION))
    turns = locomo_turns(tmp_path)
    assert turns == [
        "Caroline (1:56 pm on 8 May, 2023): I went hiking in Berlin.",
        "Melanie (1:56 pm on 8 May, 2023): Nice, I stayed home.",
        "Caroline (2:10 pm on 9 May, 2023): We use Kafka at work. "
        "[shares a photo: a photo of a cat]",
    ]
    out, err = _call(
        "--locomo", "--locomo-dir", str(tmp_path), "--extractor", "heuristic", "--json"
    )
    figures = json.loads(out)["heuristic"]
    expected = profile(HeuristicExtractor().extract_many(turns)).as_dict(30)
    for key in ("texts", "entities_per_100", "relationships_per_100", "distinct_names", "top"):
        assert figures[key] == expected[key]
    assert figures["texts"] == 3 and figures["ms_per_text"] >= 0
    assert figures["top"][0] == {"name": "caroline", "texts": 2, "types": ["person"]}
    assert sum(figures["type_shares"].values()) == pytest.approx(1, abs=0.001)  # rounded
    assert "heuristic on LoCoMo turns" in err

    out, _ = _call(
        "--locomo", "--locomo-dir", str(tmp_path), "--extractor", "heuristic", "--top", "2"
    )
    lines = out.splitlines()
    assert lines[0].split() == ["heuristic"] and lines[1].split() == ["turns", "3"]
    assert "entities per 100 turns" in out and "share of entities by type" in out
    assert lines[-2].split() == ["1", "caroline", "2", "person"]
    assert lines[-1].split()[0] == "2"  # --top 2


def test_it_names_a_missing_locomo_folder(tmp_path):
    with pytest.raises(CommandError, match="no LoCoMo JSON files"):
        _call("--locomo", "--locomo-dir", str(tmp_path), "--extractor", "heuristic")
