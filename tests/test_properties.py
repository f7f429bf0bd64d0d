"""Property tests (hypothesis) of the pieces every write and search goes through: the
template parser, the chunker, BM25 and reciprocal rank fusion."""

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memoryhub.errors import DomainError
from memoryhub.text import chunk_text, count_tokens
from tiers.active_templates import parse_template
from tiers.search.fusion import ranks, rrf_scores

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=2000)
WORDS = st.lists(
    st.text(alphabet="abcdefghij .,!?", min_size=1, max_size=12), min_size=1, max_size=400
)


# --- the template parser -----------------------------------------------------------------


@given(TEXT)
@settings(max_examples=300, deadline=None)
def test_the_template_parser_accepts_or_names_the_problem_never_crashes(text):
    try:
        template = parse_template(text)
    except DomainError as error:
        assert error.detail and error.fields  # a clear message naming the field
        return
    assert template.sections
    assert len({s.id for s in template.sections}) == len(template.sections)


SECTION = st.fixed_dictionaries(
    {
        "id": st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True),
        "name": st.text(alphabet="Abc xyz", min_size=1, max_size=20),
    }
)


@given(st.lists(SECTION, min_size=1, max_size=8, unique_by=lambda s: s["id"]))
@settings(max_examples=100, deadline=None)
def test_a_well_formed_template_keeps_its_sections_in_order(sections):
    import yaml

    text = yaml.safe_dump(
        {"template": {"id": "t", "name": "T", "version": "1.0"}, "sections": sections}
    )
    try:
        template = parse_template(text)
    except DomainError:
        assume(False)  # a name the parser rejects (e.g. only spaces) is fine to refuse
    assert [s.id for s in template.sections] == [s["id"] for s in sections]


# --- the chunker -------------------------------------------------------------------------


@given(WORDS, st.integers(16, 120), st.integers(0, 15))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_chunks_cover_the_text_within_the_size(words, size, overlap):
    text = " ".join(words)
    assume(text.strip())
    chunks = chunk_text(text, split_above=size, chunk_tokens=size, overlap_tokens=overlap)
    assert chunks and all(chunk.strip() for chunk in chunks)
    # no word is lost: every word of the text is in some chunk, in order
    joined = " ".join(chunks)
    for word in text.split():
        assert word in joined
    if count_tokens(text) <= size:
        assert chunks == [text.strip()] or chunks == [text]
    else:
        # each chunk stays near the size (one sentence may overflow by its own length)
        assert all(count_tokens(c) <= size + overlap + size for c in chunks)


# --- reciprocal rank fusion ----------------------------------------------------------------

RANKED = st.lists(st.integers(1, 60), unique=True, max_size=30)


@given(RANKED, RANKED, st.integers(1, 100), st.floats(0, 5), st.floats(0, 5))
@settings(max_examples=300, deadline=None)
def test_rrf_is_bounded_monotone_and_symmetric(vector, bm25, k, wv, wb):
    vector_rank = ranks([(cid, 0.0) for cid in vector])
    bm25_rank = ranks([(cid, 0.0) for cid in bm25])
    ids = list(dict.fromkeys(vector + bm25))
    fused = rrf_scores(ids, vector_rank, bm25_rank, k=k, vector_weight=wv, bm25_weight=wb)
    for cid in ids:
        assert 0.0 <= fused[cid] <= (wv + wb) / (k + 1) + 1e-12
        assert math.isfinite(fused[cid])
    # within one list, a better rank never fuses lower (all else equal: not in the other)
    only_vector = [cid for cid in vector if cid not in bm25_rank]
    for better, worse in zip(only_vector, only_vector[1:], strict=False):
        assert fused[better] >= fused[worse]
    swapped = rrf_scores(ids, bm25_rank, vector_rank, k=k, vector_weight=wb, bm25_weight=wv)
    assert swapped == pytest.approx(fused)


# --- BM25 (in PostgreSQL) ------------------------------------------------------------------

DOC = st.lists(
    st.sampled_from("apple banana cherry durian elder fig grape".split()), min_size=1, max_size=12
)


@pytest.mark.django_db
@given(st.lists(DOC, min_size=1, max_size=6), st.sampled_from("apple banana cherry fig".split()))
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_bm25_scores_only_matching_chunks_and_more_occurrences_score_higher(worker, docs, term):
    from tiers.models import ShorttermMemory
    from tiers.search import search
    from tiers.services.shortterm import shortterm_memory_create

    ShorttermMemory.objects.filter(worker=worker).delete()
    from tiers.search.index import bm25_reindex_worker

    bm25_reindex_worker(tier="shortterm", worker_id=worker.pk)
    memory = shortterm_memory_create(
        worker=worker, title="fruit", chunks=[{"content": " ".join(d)} for d in docs]
    )
    hits = search(worker=worker, query=term, mode="bm25", limit=100)
    contents = {c.pk: c.content for c in memory.chunks.all()}
    matching = {cid for cid, text in contents.items() if term in text.split()}
    assert {h.chunk_id for h in hits} == matching
    assert all(h.bm25_score > 0 for h in hits)
    # among chunks of the same length, more occurrences never score lower
    for a in hits:
        for b in hits:
            same_length = len(contents[a.chunk_id].split()) == len(contents[b.chunk_id].split())
            if same_length and contents[a.chunk_id].split().count(term) > contents[
                b.chunk_id
            ].split().count(term):
                assert a.bm25_score >= b.bm25_score
