import re

import pytest

from memoryhub.text import chunk_text, count_tokens, has_word, split_sentences, us_spelling

CONFIG = {"split_above": 500, "chunk_tokens": 512, "overlap_tokens": 50}


def _long_text(sentences: int = 300) -> str:
    return " ".join(
        f"Sentence {i} says the deploy of service {i % 7} went fine on day {i}."
        for i in range(sentences)
    )


def test_small_content_is_one_chunk():
    assert chunk_text("We use JWT. It expires in 1 hour.", **CONFIG) == [
        "We use JWT. It expires in 1 hour."
    ]
    assert chunk_text("   ", **CONFIG) == []


def test_long_content_is_split_at_sentences_with_overlap():
    chunks = chunk_text(_long_text(), **CONFIG)
    assert len(chunks) > 3
    for chunk in chunks:
        assert count_tokens(chunk) <= 512
        assert chunk.endswith(".")  # cut between sentences
    for previous, current in zip(chunks, chunks[1:], strict=False):
        first_sentence = split_sentences(current)[0]
        assert first_sentence in previous  # overlap: the next chunk repeats the tail
        overlap = previous[previous.index(first_sentence) :]
        assert count_tokens(overlap) <= 50


def test_every_sentence_is_kept():
    text = _long_text()
    joined = " ".join(chunk_text(text, **CONFIG))
    for sentence in split_sentences(text):
        assert sentence in joined


def test_a_sentence_longer_than_a_chunk_is_cut_between_words():
    text = " ".join(f"word{i}" for i in range(1500))
    chunks = chunk_text(text, **CONFIG)
    assert len(chunks) >= 3 and all(count_tokens(c) <= 512 for c in chunks)
    assert " ".join(chunks).split()[:10] == text.split()[:10]


def test_markdown_lists_and_paragraphs_are_boundaries():
    assert split_sentences("# Title\n- one\n- two\n\nParagraph. Next one!") == [
        "# Title",
        "- one",
        "- two",
        "Paragraph.",
        "Next one!",
    ]


def test_a_word_diff_keeps_figures_whole_side_by_side_and_inline():
    from memoryhub.text import inline_word_diff, word_diff

    before, after = "The budget is $50,000 this year.", "The budget is $65,000 this year."
    left, right = word_diff(before, after)
    assert ("del", "$50,000") in left and ("ins", "$65,000") in right
    assert "".join(t for _, t in left) == before and "".join(t for _, t in right) == after
    inline = inline_word_diff(before, after)
    assert inline[inline.index(("del", "$50,000")) + 1] == ("ins", "$65,000")
    assert "".join(t for k, t in inline if k != "del") == after


def test_a_kept_parse_reads_back_as_the_same_parse_and_only_for_its_own_text():
    from graph.extraction.parser import ParserExtractor
    from memoryhub import nlp

    text = "Kojo Asante: I moved the `orders-api` to eu-west-1 and it now uses Postgres 16."
    nlp.forget_parses()
    assert nlp.stored_form(text) is None  # nothing parsed: nothing to keep, nothing parsed
    before = ParserExtractor().extract(text)
    blob = nlp.stored_form(text)
    assert blob and len(blob) < 4000
    nlp.forget_parses()
    assert nlp.remember_stored(text, blob)
    assert ParserExtractor().extract(text) == before
    nlp.forget_parses()
    assert not nlp.remember_stored("Another text entirely.", blob)  # the parse of another text
    assert not nlp.remember_stored(text, b"memoryhub:old-stamp\n" + blob.split(b"\n", 1)[1])
    assert not nlp.remember_stored(text, blob[:-20])  # damaged
    assert not nlp.remember_stored(text, None)
    assert text not in nlp._cache


def test_the_side_job_runs_on_another_thread_and_its_error_waits_for_both():
    import threading

    from memoryhub import nlp

    here = threading.get_ident()
    side, work = nlp.run_beside(threading.get_ident, lambda: threading.get_ident())
    assert work == here and side != here

    finished = []

    def slow_side():
        threading.Event().wait(0.05)
        finished.append("side")

    def failing_work():
        raise ValueError("embedding failed")

    with pytest.raises(ValueError, match="embedding failed"):
        nlp.run_beside(slow_side, failing_work)
    assert finished == ["side"]  # the side job was waited for, not left writing the caches
    with pytest.raises(KeyError):
        nlp.run_beside(lambda: {}["missing"], lambda: "done")


def test_plain_letters_reads_a_name_with_or_without_its_accents_alike():
    from memoryhub.text import plain_letters

    assert plain_letters("Søren Ødegård") == plain_letters("Soren Odegard") == "soren odegard"
    assert plain_letters("Ayşe Łukasz İzmir") == "ayse lukasz izmir"


@pytest.mark.parametrize(
    ("text", "word", "found"),
    [
        ("the api is up", "api", True),
        ("apis are up", "api", False),
        ("my .net app", ".net", True),
        ("db-1x", "db-1", False),
        ("db-1 ok", "db-1", True),
        ("_api", "api", False),
        ("café", "caf", False),
        ("api-gw", "api", True),
    ],
)
def test_a_word_is_found_whole_not_inside_a_longer_one(text, word, found):
    assert has_word(text, word) is found
    assert has_word(text, word) is bool(re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text))


def test_a_reading_kept_beside_a_parse_comes_back_under_its_own_version_only():
    from memoryhub import nlp

    text = "Ines Duarte moved the billing job to Thursdays."
    restored = []
    nlp.keep_beside(
        "test-reading",
        version="1",
        read=lambda t: b"read of " + t.encode() if t == text else None,
        restore=lambda t, data: restored.append((t, data)),
    )
    try:
        nlp.forget_parses()
        nlp.parse(text)
        blob = nlp.stored_form(text)
        nlp.forget_parses()
        assert nlp.remember_stored(text, blob)
        assert restored == [(text, b"read of " + text.encode())]
        restored.clear()
        nlp.keep_beside("test-reading", version="2", read=lambda t: None, restore=restored.append)
        nlp.forget_parses()
        assert nlp.remember_stored(text, blob)  # the parse still reads back; the reading not
        assert restored == []
        nlp.forget_parses()
        nlp.parse(text)
        nlp.forget_parses()  # a form made when nothing was read keeps the parse alone
        nlp.parse(text)
        assert nlp.remember_stored(text, nlp.stored_form(text)) and restored == []
    finally:
        nlp._beside_readings.pop("test-reading")


def test_the_quick_attribute_ruler_finds_the_matches_spacys_matcher_finds():
    import types

    from memoryhub import nlp

    model = nlp._load()
    ruler = model.get_pipe("attribute_ruler")
    quick = ruler.match
    stock = types.MethodType(type(ruler).match, ruler)
    assert quick != stock  # the pipeline reads the quick one
    texts = [
        "I ain't gonna move the `orders-api` to eu-west-1, we're gonna wait.",
        "She doesn't like it but they're fine; that's what I'd do.\n- Prefers Polars\n",
        "Kojo Asante: something's off with db-replica-3 – nobody knows why.",
    ]
    for doc in model.pipe(nlp._make(model, texts)):
        assert quick(doc) == stock(doc)
        assert quick(doc)  # the rules do match here


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("paediatric", "pediatric"),
        ("colour", "color"),
        ("behaviour", "behavior"),
        ("organisation", "organization"),
        ("analysed", "analyzed"),
        ("centre", "center"),
        ("travelled", "traveled"),
        ("catalogue", "catalog"),
        ("haemoglobin", "hemoglobin"),
        ("grey", "gray"),
        ("yearly", "annual"),
    ],
)
def test_british_and_american_spellings_compare_as_one(british, american):
    assert us_spelling(british) == us_spelling(american)


@pytest.mark.parametrize("word", ["four", "hour", "flour", "tour", "michael", "israel", "raise"])
def test_words_that_only_look_british_keep_their_spelling(word):
    assert us_spelling(word) == word
