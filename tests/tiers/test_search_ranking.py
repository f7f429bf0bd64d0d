"""Ranking beyond the two lists: metadata that BM25 reads (who said it, when), the
neighbouring chunks of the best hits, and the preference for what a named speaker said."""

import pytest

from memoryhub.errors import DomainError
from tiers.models import Tier
from tiers.search import search
from tiers.search.index import bm25_reindex_worker, embedding_text, metadata_text
from tiers.search.neighbours import lend_scores
from tiers.search.speakers import named_in_query
from tiers.services.shortterm import shortterm_memory_create

pytestmark = pytest.mark.django_db


def test_it_spells_out_dates_and_keeps_only_the_configured_keys():
    text = metadata_text(
        {
            "session_date": "2023-05-07",
            "speaker": "Caroline",
            "date": "2023-08-14T13:56:00Z",
            "author": ["Ana", "Ben"],
            "dia_id": "D1:3",
        }
    )
    assert "Sunday 7 May 2023 2023-05-07" in text
    assert "Monday 14 August 2023" in text
    assert "Caroline" in text and "Ana Ben" in text
    assert "D1:3" not in text  # not a configured key
    assert metadata_text({"date": "2023-02-31"}) == "2023-02-31"  # not a date: as written
    assert metadata_text({"speaker": None, "date": True}) == ""
    assert metadata_text("not a dict") == ""


def test_the_model_reads_who_and_when_before_the_content():
    said = "Caroline: I went to a support group yesterday."
    metadata = {"speaker": "Caroline", "session_date": "2023-05-08", "dia_id": "D1:3"}
    assert embedding_text(said, metadata) == f"Caroline (Monday 8 May 2023): {said}"
    assert embedding_text("x", {"date": "2023-05-08"}) == "(Monday 8 May 2023): x"
    assert embedding_text("x", {"dia_id": "D1:3"}) == "x"
    assert embedding_text("x", None) == "x"


def test_a_chunk_is_embedded_with_its_header_and_stored_as_written(worker):
    import numpy as np

    from memoryhub.providers.embeddings import get_embedder
    from tiers.models import ShorttermChunk

    metadata = {"speaker": "Caroline", "session_date": "2023-05-08"}
    shortterm_memory_create(
        worker=worker, title="t", chunks=[{"content": "I went there.", "metadata": metadata}]
    )
    chunk = ShorttermChunk.objects.get(worker=worker)
    assert chunk.content == "I went there."
    expected = get_embedder().embed_documents([embedding_text("I went there.", metadata)])[0]
    assert np.allclose(np.asarray(chunk.embedding), expected, atol=1e-3)


@pytest.fixture
def diary(worker):
    """The same kind of turn on two dates, by two speakers; neither text names either."""
    may = shortterm_memory_create(
        worker=worker,
        title="Session 1",
        chunks=[
            {
                "content": "I went to a support group yesterday, it was powerful.",
                "metadata": {"session_date": "2023-05-08", "speaker": "Caroline"},
            }
        ],
    )
    august = shortterm_memory_create(
        worker=worker,
        title="Session 9",
        chunks=[
            {
                "content": "I went to a pottery class yesterday, it was relaxing.",
                "metadata": {"session_date": "2023-08-14", "speaker": "Melanie"},
            }
        ],
    )
    return may, august


def test_a_metadata_date_makes_a_dated_chunk_match_the_month(worker, diary):
    may, _ = diary
    hits = search(worker=worker, query="When did she go somewhere in May 2023?", mode="bm25")
    assert hits[0].memory_id == may.pk and hits[0].bm25_score > hits[-1].bm25_score
    # the stored text is the text as said
    assert hits[0].content == "I went to a support group yesterday, it was powerful."
    weekday = search(worker=worker, query="what happened on Monday", mode="bm25")
    assert {h.memory_id for h in weekday} == {may.pk, diary[1].pk}  # both were Mondays


def test_a_speaker_in_metadata_matches_a_question_naming_them(worker, diary):
    _, august = diary
    hits = search(worker=worker, query="What did Melanie say?", mode="bm25")
    assert [h.memory_id for h in hits] == [august.pk]


def test_without_metadata_keys_only_the_text_is_indexed(worker, diary, settings):
    settings.MEMORYHUB_SEARCH = {**settings.MEMORYHUB_SEARCH, "bm25_metadata_keys": []}
    bm25_reindex_worker(tier=Tier.SHORTTERM, worker_id=worker.pk)
    assert search(worker=worker, query="May 2023 Melanie", mode="bm25") == []


TURNS = [
    "Did you hear back from the adoption agency about the home study?",
    "Yes! We signed the papers on Friday and we are thrilled.",
    "My cat knocked over the plant again this morning.",
]
OTHERS = [
    "Adoption is a big decision for any family.",
    "She read a book about adoption last winter.",
    "Adoption stories always make me cry.",
    "His parents talked about adoption over dinner.",
]


@pytest.fixture
def dialogue(worker):
    talk = shortterm_memory_create(
        worker=worker, title="Talk", chunks=[{"content": t} for t in TURNS]
    )
    notes = shortterm_memory_create(
        worker=worker, title="Notes", chunks=[{"content": t} for t in OTHERS]
    )
    return talk, notes


def _hybrid(worker, **options):
    return search(
        worker=worker,
        query="adoption agency home study",
        mode="hybrid",
        limit=3,
        candidates=3,
        **options,
    )


def test_neighbour_expansion_brings_in_the_reply_to_a_hit(worker, dialogue):
    reply = TURNS[1]
    plain = _hybrid(worker, neighbours=0)
    assert plain[0].content == TURNS[0] and reply not in [h.content for h in plain]
    expanded = _hybrid(worker, neighbours=1, neighbour_weight=0.9)
    contents = [h.content for h in expanded]
    assert reply in contents  # found by neither list: lent 0.9 of the question's score
    hit = expanded[contents.index(reply)]
    assert hit.vector_rank is None and hit.bm25_rank is None
    assert hit.fused_score == pytest.approx(0.9 * plain[0].fused_score)
    assert TURNS[2] not in contents  # two places from the question, not a neighbour at 1


def test_a_neighbour_scores_its_own_or_the_largest_share_divided_by_the_distance():
    fused = {1: 0.2, 2: 0.1, 3: 0.01, 6: 0.09}
    pairs = [(1, 4, 1), (1, 5, 2), (2, 5, 1), (1, 3, 2), (1, 6, 2), (1, 2, 1)]
    lent = lend_scores(fused, pairs, weight=0.5)
    assert lent[4] == pytest.approx(0.1)  # 0.5 × 0.2 / 1
    assert lent[5] == pytest.approx(0.05)  # max(0.5 × 0.2 / 2, 0.5 × 0.1 / 1), not their sum
    assert lent[3] == pytest.approx(0.05)  # the loan, above its own score
    assert lent[6] == 0.09  # its own score, above the loan
    assert lent[1] == 0.2 and lent[2] == 0.1
    gentle = lend_scores(fused, pairs, weight=0.5, decay=0.8)
    assert gentle[5] == pytest.approx(0.08)  # 0.5 × 0.2 × 0.8: two places on
    assert gentle[4] == pytest.approx(0.1)  # one place: the whole share


def test_the_default_reaches_the_same_speakers_next_turn(worker, dialogue):
    hits = _hybrid(worker, neighbours=None, neighbour_weight=1.0, neighbour_decay=0.8)
    assert TURNS[2] in [h.content for h in hits]  # two places on: 0.8 of the hit's score
    bad = pytest.raises(DomainError, search, worker=worker, query="x", neighbour_decay=1.5)
    assert "neighbour_decay" in bad.value.fields


def test_neighbours_respect_the_filters(worker, dialogue):
    talk, _ = dialogue
    other = shortterm_memory_create(worker=worker, title="x", chunks=[{"content": "adoption"}])
    hits = search(
        worker=worker,
        query="adoption agency home study",
        mode="hybrid",
        memory_ids=[other.pk],
        neighbours=2,
        neighbour_weight=1.0,
    )
    assert {h.memory_id for h in hits} == {other.pk} and talk.pk not in {h.memory_id for h in hits}


@pytest.mark.parametrize("options", [{"neighbours": 6}, {"neighbours": -1}, {"neighbours": "1"}])
def test_bad_neighbours_name_the_field(worker, options):
    with pytest.raises(DomainError) as caught:
        search(worker=worker, query="x", **options)
    assert "neighbours" in caught.value.fields


def test_the_api_takes_the_neighbour_options(owner_client, worker, dialogue):
    url = f"/api/v1/workers/{worker.pk}/search/shortterm"
    body = {"query": TURNS[0], "limit": 3, "neighbours": 1}
    response = owner_client.post(url, {**body, "neighbour_weight": 0.9}, format="json")
    assert response.status_code == 200, response.content
    assert TURNS[1] in [r["content"] for r in response.json()["results"]]
    bad = owner_client.post(url, {**body, "neighbours": 9}, format="json")
    assert bad.status_code == 400 and "neighbours" in bad.content.decode()


def test_the_query_names_speakers_first_named_first():
    names = {"caroline", "melanie", "jon smith"}
    assert named_in_query("What did Melanie think of Caroline's plan?", names) == {
        "melanie": 1.0,
        "caroline": 0.5,
    }
    assert named_in_query("Where does Jon work?", names) == {"jon smith": 1.0}
    assert named_in_query("what did jon smith say", names) == {"jon smith": 1.0}
    assert named_in_query("Who is Carol?", names) == {}  # whole words only
    assert named_in_query("Who said it?", names) == {}


@pytest.fixture
def two_speakers(worker):
    """Both say the same kind of thing about running; neither turn names a person."""
    return shortterm_memory_create(
        worker=worker,
        title="Session 7",
        chunks=[
            {
                "content": "Running in the morning has been great for my head.",
                "metadata": {"speaker": "Caroline"},
            },
            {
                "content": "Running in the morning has been great for my knees.",
                "metadata": {"speaker": "Melanie"},
            },
        ],
    )


def test_what_the_named_speaker_said_ranks_first(worker, two_speakers):
    question = "What has running in the morning been great for, according to {}?"
    for name in ("Caroline", "Melanie"):
        hits = search(worker=worker, query=question.format(name), mode="hybrid")
        assert hits[0].metadata["speaker"] == name
        assert hits[0].fused_score > hits[1].fused_score
    off = search(worker=worker, query=question.format("Melanie"), speaker_weight=0)
    on = search(worker=worker, query=question.format("Melanie"), speaker_weight=0.3)
    own = {h.chunk_id: h.fused_score for h in off}
    melanie = next(h for h in on if h.metadata["speaker"] == "Melanie")
    assert melanie.fused_score == pytest.approx(own[melanie.chunk_id] * 1.3)
    caroline = next(h for h in on if h.metadata["speaker"] == "Caroline")
    assert caroline.fused_score == pytest.approx(own[caroline.chunk_id])  # left as it was


def test_a_query_naming_no_speaker_is_ranked_as_before(worker, two_speakers):
    query = "What has running in the morning been great for?"
    plain = search(worker=worker, query=query, speaker_weight=0)
    preferred = search(worker=worker, query=query)
    assert [(h.chunk_id, h.fused_score) for h in plain] == [
        (h.chunk_id, h.fused_score) for h in preferred
    ]


def test_the_api_takes_the_speaker_weight(owner_client, worker, two_speakers):
    url = f"/api/v1/workers/{worker.pk}/search/shortterm"
    body = {"query": "What has running been great for, Melanie?", "speaker_weight": 0.5}
    response = owner_client.post(url, body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["results"][0]["metadata"]["speaker"] == "Melanie"
    bad = owner_client.post(url, {**body, "speaker_weight": -1}, format="json")
    assert bad.status_code == 400 and "speaker_weight" in bad.json()["fields"]
