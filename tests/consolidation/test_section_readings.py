"""Sections read when they are written: the reading is made in the background after the
agent's update commits, kept only for the content it was made of, and read back by the
migration instead of embedding, parsing and extracting the section again."""

import pytest

from consolidation.claims import forget_spellings, has_kept_readings
from consolidation.services import section_readings
from consolidation.services.active_to_shortterm import migrate_active_memory
from consolidation.services.section_readings import (
    chunk_readings_make,
    reading_on_write,
    section_reading,
    section_readings_make,
)
from memoryhub import nlp
from memoryhub.providers.embeddings import get_embedder
from review.models import MergeConflict
from tests.factories import TASK_TEMPLATE
from tiers.models import ActiveMemory, ActiveSectionReading
from tiers.selectors.shortterm import shortterm_chunk_parses
from tiers.services.active import (
    active_memory_create,
    active_memory_update_sections,
    active_section_readings_keep,
)
from tiers.services.shortterm import shortterm_chunks_update, shortterm_memory_create

pytestmark = pytest.mark.django_db

BUDGET = "The Q3 budget for the marketing team is $50,000."
CHANGED = "The Q3 budget for the marketing team is $65,000. Mira Shah approves it."


@pytest.fixture(autouse=True)
def reading(settings):
    settings.MEMORYHUB_MIGRATION = settings.MEMORYHUB_MIGRATION | {
        "candidate_similarity": 0.45,  # hash embeddings score restatements lower than MiniLM
        "read_on_write": "on",
    }


def _active(worker):
    return active_memory_create(
        worker=worker,
        title="Sprint 12",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "Ship sprint 12"},
    )


def _write(memory, notes, capture):
    with capture(execute=True):  # the cluster runs inline in the tests
        return active_memory_update_sections(memory=memory, sections={"notes": notes})


def _outcome(run, section="notes"):
    return next(o for o in run.outcomes if o["section_id"] == section)


def test_a_written_section_is_read_in_the_background(worker, django_capture_on_commit_callbacks):
    memory = _write(_active(worker), CHANGED, django_capture_on_commit_callbacks)
    kept = ActiveSectionReading.objects.get(memory=memory, section_id="notes")
    assert kept.content_hash == ActiveSectionReading.hash_of(CHANGED)
    assert len(kept.embedding) == get_embedder().dimension
    assert {e["name"] for e in kept.graph["entities"]} >= {"Mira Shah"}
    assert bytes(kept.parse).startswith(nlp.parse_version().encode())
    # the objective was not written by this update: not read
    assert not ActiveSectionReading.objects.filter(memory=memory, section_id="objective").exists()
    # written again: read again, one row per section
    _write(memory, BUDGET, django_capture_on_commit_callbacks)
    kept = ActiveSectionReading.objects.get(memory=memory, section_id="notes")
    assert kept.content_hash == ActiveSectionReading.hash_of(BUDGET)


def test_reading_twice_reads_nothing_more(worker, django_capture_on_commit_callbacks):
    memory = _write(_active(worker), CHANGED, django_capture_on_commit_callbacks)
    assert section_readings_make(memory_id=memory.pk) == 1  # the objective, never written
    assert section_readings_make(memory_id=memory.pk) == 0
    assert ActiveSectionReading.objects.filter(memory=memory).count() == 2
    assert section_readings_make(memory_id=10**9) == 0  # deleted meanwhile: nothing to do


def test_the_migration_decides_on_the_reading_without_reading_the_section_again(
    worker, django_capture_on_commit_callbacks, monkeypatch
):
    with django_capture_on_commit_callbacks(execute=True):  # the chunk is read on write too
        stored = shortterm_memory_create(
            worker=worker, title="Budget", chunks=[{"content": BUDGET}]
        )
    memory = _write(_active(worker), CHANGED, django_capture_on_commit_callbacks)
    nlp.forget_parses()  # another process: the decision's own caches are empty
    embedded, parsed = [], []
    embedder = get_embedder()
    original_embed, original_make = embedder.embed_documents, nlp._make
    monkeypatch.setattr(
        embedder, "embed_documents", lambda texts: embedded.extend(texts) or original_embed(texts)
    )
    monkeypatch.setattr(  # what is parsed, not read from a cache
        nlp, "_make", lambda model, texts: parsed.extend(texts) or original_make(model, texts)
    )
    run = migrate_active_memory(memory=memory, trigger="api")
    outcome = _outcome(run)
    assert outcome["outcome"] == "conflict" and outcome["read_when_written"] is True
    assert CHANGED not in embedded
    assert parsed == []  # neither the section nor its candidate
    nlp.parse("A text never parsed.")
    assert parsed == ["A text never parsed."]  # what would have shown a parse
    conflict = MergeConflict.objects.get()
    assert conflict.shortterm_memory_id == stored.pk
    assert {r["code"] for r in conflict.reasons} >= {"number_changed"}
    # the whole graph read when written is what the conflict compares
    assert "Mira Shah" in {d["name"] for d in conflict.entity_differences["new"]}


def test_a_reading_decides_as_reading_the_section_then_would(
    worker, other_worker, django_capture_on_commit_callbacks, settings
):
    outcomes = []
    for owner, read in ((worker, True), (other_worker, False)):
        settings.MEMORYHUB_MIGRATION = settings.MEMORYHUB_MIGRATION | {
            "read_on_write": "on" if read else "off"
        }
        shortterm_memory_create(worker=owner, title="Budget", chunks=[{"content": BUDGET}])
        memory = _write(_active(owner), CHANGED, django_capture_on_commit_callbacks)
        outcome = _outcome(migrate_active_memory(memory=memory, trigger="api"))
        assert outcome["read_when_written"] is read
        outcomes.append(outcome["outcome"])
    assert outcomes == ["conflict", "conflict"]
    first, second = MergeConflict.objects.order_by("pk")
    assert {r["code"] for r in first.reasons} == {r["code"] for r in second.reasons}
    judged = [c.conflicting_chunks[0]["judge"] for c in (first, second)]
    assert judged[0]["evidence"] == judged[1]["evidence"]
    assert judged[0]["probabilities"] == pytest.approx(judged[1]["probabilities"], abs=1e-3)


def test_a_reading_of_an_earlier_content_is_not_used(
    worker, django_capture_on_commit_callbacks, settings
):
    memory = _write(_active(worker), BUDGET, django_capture_on_commit_callbacks)
    settings.MEMORYHUB_MIGRATION = settings.MEMORYHUB_MIGRATION | {"read_on_write": "off"}
    memory = _write(memory, CHANGED, django_capture_on_commit_callbacks)  # not read again
    assert section_reading(memory_id=memory.pk, section_id="notes", content=CHANGED) is None
    outcome = _outcome(migrate_active_memory(memory=memory, trigger="api"))
    assert outcome["outcome"] == "created" and outcome["read_when_written"] is False


def test_a_reading_made_by_another_parser_or_embedder_is_not_used(
    worker, django_capture_on_commit_callbacks
):
    memory = _write(_active(worker), CHANGED, django_capture_on_commit_callbacks)
    assert section_reading(memory_id=memory.pk, section_id="notes", content=CHANGED)
    ActiveSectionReading.objects.filter(memory=memory).update(version="another:model|hash:384")
    assert section_reading(memory_id=memory.pk, section_id="notes", content=CHANGED) is None
    assert section_readings_make(memory_id=memory.pk, section_ids=["notes"]) == 1  # read anew
    assert section_reading(memory_id=memory.pk, section_id="notes", content=CHANGED)


def test_a_reading_is_kept_only_while_the_section_holds_its_content(worker):
    memory = active_memory_update_sections(memory=_active(worker), sections={"notes": CHANGED})
    reading = {
        "section_id": "notes",
        "version": "v",
        "embedding": [0.0] * get_embedder().dimension,
        "parse": b"",
        "quick_graph": {},
        "graph": {},
    }
    kept = active_section_readings_keep(
        memory_id=memory.pk,
        readings=[reading | {"content": BUDGET}, reading | {"section_id": "gone", "content": ""}],
    )
    assert kept == 0 and not ActiveSectionReading.objects.exists()
    assert (
        active_section_readings_keep(memory_id=memory.pk, readings=[reading | {"content": CHANGED}])
        == 1
    )
    ActiveMemory.objects.filter(pk=memory.pk).delete()
    assert not ActiveSectionReading.objects.exists()  # deleted with its memory


def test_auto_reads_on_write_only_where_no_paid_call_is_made(settings):
    settings.MEMORYHUB_MIGRATION = settings.MEMORYHUB_MIGRATION | {"read_on_write": "auto"}
    assert reading_on_write()
    settings.MEMORYHUB_EMBEDDINGS = settings.MEMORYHUB_EMBEDDINGS | {"provider": "openai"}
    assert not reading_on_write()
    settings.MEMORYHUB_EMBEDDINGS = settings.MEMORYHUB_EMBEDDINGS | {"provider": "hash"}
    settings.MEMORYHUB_GRAPH = settings.MEMORYHUB_GRAPH | {"extractor": "llm"}
    assert not reading_on_write()
    settings.MEMORYHUB_MIGRATION = settings.MEMORYHUB_MIGRATION | {"read_on_write": "on"}
    assert reading_on_write()


def test_nothing_is_queued_when_reading_on_write_is_off(
    worker, django_capture_on_commit_callbacks, settings, monkeypatch
):
    settings.MEMORYHUB_MIGRATION = settings.MEMORYHUB_MIGRATION | {"read_on_write": "off"}
    called = []
    monkeypatch.setattr(section_readings, "section_readings_make", lambda **kw: called.append(kw))
    _write(_active(worker), CHANGED, django_capture_on_commit_callbacks)
    assert not called and not ActiveSectionReading.objects.exists()


def test_an_agent_writing_through_the_api_has_its_sections_read(
    owner_client, worker, django_capture_on_commit_callbacks
):
    memory = _active(worker)
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.patch(
            f"/api/v1/workers/{worker.pk}/active/{memory.pk}/sections",
            {"sections": {"progress": "Deployed orders-api 2.4 to eu-west-1.", "notes": BUDGET}},
            format="json",
        )
    assert response.status_code == 200
    kept = dict(
        ActiveSectionReading.objects.filter(memory=memory).values_list("section_id", "content_hash")
    )
    assert kept == {
        "progress": ActiveSectionReading.hash_of("Deployed orders-api 2.4 to eu-west-1."),
        "notes": ActiveSectionReading.hash_of(BUDGET),
    }


def test_the_health_view_says_whether_sections_are_read_on_write(owner_client, settings):
    from django.apps import apps

    report = apps.get_app_config("consolidation").health_report()
    assert report["read_on_write"] == {"mode": "on", "active": True, "reason": ""}
    settings.MEMORYHUB_MIGRATION = settings.MEMORYHUB_MIGRATION | {"read_on_write": "auto"}
    settings.MEMORYHUB_GRAPH = settings.MEMORYHUB_GRAPH | {"extractor": "llm"}
    report = apps.get_app_config("consolidation").health_report()
    assert not report["read_on_write"]["active"]
    assert report["read_on_write"]["reason"] == "auto: the extractor is an LLM"


def test_a_chunk_stored_without_its_parse_is_read_on_write(
    worker, django_capture_on_commit_callbacks, settings
):
    with django_capture_on_commit_callbacks(execute=True):
        memory = shortterm_memory_create(
            worker=worker, title="Budget", chunks=[{"content": BUDGET}, {"content": CHANGED}]
        )
    first, second = memory.chunks.order_by("chunk_order")
    kept = shortterm_chunk_parses(chunk_ids=[first.pk, second.pk])
    assert set(kept) == {first.pk, second.pk}
    nlp.forget_parses()
    forget_spellings()
    assert nlp.remember_stored(BUDGET, kept[first.pk]) and has_kept_readings(BUDGET)
    # rewritten: its parse goes with the old content, and the new one is read
    with django_capture_on_commit_callbacks(execute=True):
        shortterm_chunks_update(
            memory=memory, updates=[{"chunk_id": first.pk, "new_content": "Budget frozen."}]
        )
    assert nlp.remember_stored(
        "Budget frozen.", shortterm_chunk_parses(chunk_ids=[first.pk])[first.pk]
    )
    assert chunk_readings_make(chunk_ids=[first.pk, second.pk]) == 0  # read already
    settings.MEMORYHUB_MIGRATION = settings.MEMORYHUB_MIGRATION | {"read_on_write": "off"}
    with django_capture_on_commit_callbacks(execute=True):
        other = shortterm_memory_create(worker=worker, title="Other", content="Oslo office.")
    assert shortterm_chunk_parses(chunk_ids=[other.chunks.get().pk]) == {}


def test_a_reading_that_fails_is_logged_and_the_write_stands(
    worker, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    def broken():
        raise RuntimeError("the queue is down")

    monkeypatch.setattr(section_readings, "reading_on_write", broken)
    with caplog.at_level("ERROR", logger="tiers.signals"):
        memory = _write(_active(worker), CHANGED, django_capture_on_commit_callbacks)
    memory.refresh_from_db()
    assert memory.sections["notes"]["content"] == CHANGED  # committed all the same
    assert f"after the update of active memory {memory.pk}, read_sections_on_update failed" in (
        caplog.text
    )
