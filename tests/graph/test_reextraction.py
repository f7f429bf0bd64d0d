"""Re-extraction of stored memories, edits that survive it, and background extraction."""

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from werkzeug import Response

from graph.extraction import get_extractor
from graph.models import Entity, GraphOutbox, Relationship
from graph.services.extraction import extraction_sweep, graph_reextract
from graph.tasks import extract_memory_graph, reextract_worker_graph
from tiers.models import ExtractionStatus, ShorttermChunk, ShorttermMemory
from tiers.services.shortterm import (
    shortterm_chunks_add,
    shortterm_chunks_update,
    shortterm_memory_create,
    shortterm_memory_delete,
)

pytestmark = pytest.mark.django_db

TEXTS = [
    "Alice Chen owns the billing service. The billing service uses PostgreSQL and Redis. "
    "Redis runs on Kubernetes. Deepak Rao works for Acme Corp.",
    "Bob Martins leads Project Atlas. Project Atlas uses Kafka.",
    "The search service depends on Elasticsearch. Maria Lopez owns the search service.",
]


def _memories(worker, texts=TEXTS):
    return [
        shortterm_memory_create(worker=worker, title=f"Note {i}", chunks=[{"content": text}])
        for i, text in enumerate(texts)
    ]


def _graph(worker) -> tuple[set, set]:
    """Every stored row of the worker's graph, ids and content."""
    entities = set(
        Entity.objects.filter(worker=worker).values_list(
            "pk", "source_memory_id", "name", "type", "description", "confidence", "edited"
        )
    )
    relationships = set(
        Relationship.objects.filter(worker=worker).values_list(
            "pk", "source_memory_id", "from_entity_id", "to_entity_id", "type", "confidence"
        )
    )
    return entities, relationships


def _entity(memory, name) -> Entity:
    return Entity.objects.get(source_memory=memory, name=name)


def _triples(memory) -> set[tuple[str, str, str]]:
    return {
        (r.from_entity.name, r.type, r.to_entity.name)
        for r in Relationship.objects.filter(source_memory=memory).select_related(
            "from_entity", "to_entity"
        )
    }


def _extractions(queued) -> list:
    """The extraction tasks among what a write queued for after its commit (the chunks'
    reading for consolidation is announced then too)."""
    return [callback for callback in queued if "extraction" in callback.__qualname__]


def test_it_re_extracts_every_memory_and_a_second_run_changes_nothing(worker, other_worker):
    _memories(worker)
    others = _memories(other_worker, TEXTS[:1])
    Entity.objects.filter(worker=worker).delete()  # as if the extractor had missed them all
    ShorttermMemory.objects.filter(worker=worker).update(extraction_status=ExtractionStatus.FAILED)
    other_graph = _graph(other_worker)
    calls = []

    first = graph_reextract(worker=worker, extractor_name="heuristic", progress=calls.append)
    assert first["memories"] == 3 and first["done"] == 3 and first["failed"] == 0
    assert first["extractor"] == "heuristic" and first["seconds"] >= 0
    assert (first["entities_before"], first["relationships_before"]) == (0, 0)
    graph = _graph(worker)
    assert (first["entities_after"], first["relationships_after"]) == tuple(map(len, graph))
    assert first["entities_after"] > 0 and first["relationships_after"] > 0
    assert calls == [3]  # one batch of three memories
    assert set(
        ShorttermMemory.objects.filter(worker=worker).values_list("extraction_status", flat=True)
    ) == {ExtractionStatus.DONE}

    second = graph_reextract(worker=worker, extractor_name="heuristic", batch_size=2)
    assert _graph(worker) == graph  # the same rows, ids and values
    assert second["entities_before"] == second["entities_after"] == first["entities_after"]
    assert _graph(other_worker) == other_graph  # another worker's graph is not touched
    assert others[0].entities.exists()


def test_the_configured_extractor_is_idempotent_too(worker):
    _memories(worker)
    graph_reextract(worker=worker)
    graph = _graph(worker)
    report = graph_reextract(worker=worker, batch_size=1)
    assert _graph(worker) == graph
    assert report["extractor"] == get_extractor().name and report["done"] == 3


def test_edits_survive_chunk_updates_and_re_extraction(owner_client, worker):
    memory = _memories(worker, TEXTS[:1])[0]
    alice, redis = _entity(memory, "Alice Chen"), _entity(memory, "Redis")
    uses = Relationship.objects.get(
        source_memory=memory, from_entity__name="billing service", type="USES", to_entity=redis
    )
    response = owner_client.patch(
        f"/api/v1/workers/{worker.pk}/shortterm/{memory.pk}/graph",
        {
            "entities": [
                {"id": alice.pk, "name": "Alice C.", "description": "billing owner"},
                {"id": redis.pk, "confidence": 0.99},
            ],
            "relationships": [{"id": uses.pk, "type": "caches with", "strength": 0.9}],
            "new_relationships": [{"from_id": alice.pk, "to_id": redis.pk, "type": "administers"}],
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    shown = {e["name"]: e["edited"] for e in response.json()["entities"]}
    assert shown["Alice C."] and shown["Redis"] and not shown["PostgreSQL"]
    assert {(r["type"], r["edited"]) for r in response.json()["relationships"]} >= {
        ("CACHES_WITH", True),
        ("ADMINISTERS", True),
        ("OWNS", False),
    }
    edited_entities = {
        e.pk: (e.name, e.type, e.description, e.confidence)
        for e in Entity.objects.filter(source_memory=memory, edited=True)
    }
    edited_relations = {
        r.pk: (r.from_entity_id, r.to_entity_id, r.type, r.confidence, r.strength)
        for r in Relationship.objects.filter(source_memory=memory, edited=True)
    }
    assert len(edited_entities) == 2 and len(edited_relations) == 2

    def assert_edits_kept():
        assert {
            e.pk: (e.name, e.type, e.description, e.confidence)
            for e in Entity.objects.filter(source_memory=memory, edited=True)
        } == edited_entities
        assert {
            r.pk: (r.from_entity_id, r.to_entity_id, r.type, r.confidence, r.strength)
            for r in Relationship.objects.filter(source_memory=memory, edited=True)
        } == edited_relations

    # The text still names Alice Chen and states billing service USES Redis: re-extraction
    # finds the renamed and retyped rows instead of adding the old versions back.
    graph_reextract(worker=worker)
    graph_reextract(worker=worker, extractor_name="heuristic")
    assert_edits_kept()
    names = set(Entity.objects.filter(source_memory=memory).values_list("name", flat=True))
    assert "Alice Chen" not in names and "Alice C." in names
    assert ("billing service", "USES", "Redis") not in _triples(memory)
    assert ("Alice C.", "OWNS", "billing service") in _triples(memory)  # found by the old name

    # A text that no longer names Alice, Redis or the billing service: the edited rows and
    # the entities an edited relationship joins stay; the rest follows the text.
    shortterm_chunks_update(
        memory=memory,
        updates=[{"chunk_id": memory.chunks.get().pk, "new_content": TEXTS[1]}],
    )
    assert_edits_kept()
    names = set(Entity.objects.filter(source_memory=memory).values_list("name", flat=True))
    assert {"Alice C.", "Redis", "billing service", "Bob Martins", "Project Atlas"} <= names
    assert "PostgreSQL" not in names and "Deepak Rao" not in names
    assert ("Alice C.", "OWNS", "billing service") not in _triples(memory)  # not edited: gone
    unstated_since = Entity.objects.get(pk=redis.pk).last_seen
    shortterm_chunks_add(memory=memory, chunks=[{"content": "Redis runs on Kubernetes."}])
    graph_reextract(worker=worker)
    assert_edits_kept()
    assert Entity.objects.get(pk=redis.pk).last_seen > unstated_since  # stated again


def test_a_memory_deleted_during_the_run_is_skipped(worker):
    memories = _memories(worker)

    def delete_the_last(count):
        if ShorttermMemory.objects.filter(pk=memories[-1].pk).exists():
            shortterm_memory_delete(memory=memories[-1])

    report = graph_reextract(worker=worker, batch_size=1, progress=delete_the_last)
    assert (report["memories"], report["done"], report["skipped"]) == (3, 2, 1)
    assert not Entity.objects.filter(source_memory_id=memories[-1].pk).exists()


def test_a_memory_deleted_while_its_batch_is_extracted_is_skipped(worker, monkeypatch):
    memories = _memories(worker)
    extractor_class = type(get_extractor())
    extract_many = extractor_class.extract_many

    def deleting(self, texts):
        results = extract_many(self, texts)
        ShorttermMemory.objects.filter(pk=memories[1].pk).delete()
        return results

    monkeypatch.setattr(extractor_class, "extract_many", deleting)
    report = graph_reextract(worker=worker)
    assert (report["done"], report["skipped"], report["failed"]) == (2, 1, 0)


def test_a_memory_changed_while_its_batch_is_extracted_gets_the_graph_of_its_new_text(
    worker, monkeypatch
):
    memory = _memories(worker, TEXTS[:1])[0]
    extractor_class = type(get_extractor())
    extract_many = extractor_class.extract_many

    def changing(self, texts):
        results = extract_many(self, texts)
        # Another writer, between the reading and the lock (its own graph is not stored).
        ShorttermChunk.objects.filter(memory=memory).update(content=TEXTS[1])
        return results

    monkeypatch.setattr(extractor_class, "extract_many", changing)
    assert graph_reextract(worker=worker)["done"] == 1
    names = set(Entity.objects.filter(source_memory=memory).values_list("name", flat=True))
    assert "Bob Martins" in names and "Alice Chen" not in names


def test_an_extractor_failure_marks_that_memory_failed_and_the_run_goes_on(
    settings, httpserver, worker
):
    _memories(worker)
    settings.MEMORYHUB_LLM = {
        "url": httpserver.url_for("/v1"),
        "model": "m",
        "api_key": "",
        "timeout": 5,
    }

    def handler(request):
        text = json.loads(request.data)["messages"][-1]["content"]
        answer = (
            "{not json"
            if "Project Atlas" in text
            else json.dumps(
                {
                    "entities": [
                        {"name": "Alice", "type": "person", "description": "", "confidence": 0.9}
                    ],
                    "relationships": [],
                }
            )
        )
        return Response(
            json.dumps({"choices": [{"message": {"content": answer}}]}),
            content_type="application/json",
        )

    httpserver.expect_request("/v1/chat/completions").respond_with_handler(handler)
    report = graph_reextract(worker=worker, extractor_name="llm")
    assert (report["done"], report["failed"], report["extractor"]) == (2, 1, "llm")
    failed = ShorttermMemory.objects.get(worker=worker, extraction_status=ExtractionStatus.FAILED)
    assert "Project Atlas" in failed.chunks.get().content and "not JSON" in failed.extraction_error


def test_the_projection_hears_of_every_change(settings, worker):
    _memories(worker)
    settings.NEO4J_URL = "bolt://neo4j:secret@127.0.0.1:1"  # records the outbox; never connects
    graph_reextract(worker=worker)
    recorded = set(
        GraphOutbox.objects.filter(kind=GraphOutbox.Kind.ENTITY).values_list("object_id", flat=True)
    )
    assert set(Entity.objects.filter(worker=worker).values_list("pk", flat=True)) <= recorded


def test_the_task_re_extracts_and_a_deleted_worker_is_nothing(worker):
    _memories(worker)
    graph = _graph(worker)
    assert reextract_worker_graph(worker.pk)["done"] == 3
    assert _graph(worker) == graph
    assert reextract_worker_graph(worker.pk + 1000) is None


# --- the command --------------------------------------------------------------------------


def _call(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("reextract_graph", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_command_shows_progress_and_a_summary(worker):
    _memories(worker)
    out, err = _call("--worker", worker.name, "--batch-size", "2", "--extractor", "heuristic")
    assert f"re-extracting {worker.name} [" in err and "3/3 (100%)" in err
    assert f"{worker.name}: 3 memories with heuristic in " in out
    assert "3 done, 0 failed, 0 skipped; entities " in out and "relationships " in out
    out, _ = _call("--worker", str(worker.pk))  # by id
    assert f"{worker.name}: 3 memories" in out


def test_the_command_does_every_worker(worker, other_worker):
    _memories(worker)
    _memories(other_worker, TEXTS[:1])
    out, _ = _call("--all-workers")
    assert f"{worker.name}: 3 memories" in out and f"{other_worker.name}: 1 memories" in out
    assert "Re-extracted 4 memories of 2 worker(s)" in out


@pytest.mark.parametrize(
    "args, option",
    [
        (["--worker", "nobody"], "--worker"),
        (["--worker", "999999"], "--worker"),
        ([], "--worker"),
        (["--worker", "owner-agent", "--all-workers"], "--all-workers"),
        (["--worker", "owner-agent", "--extractor", "magic"], "--extractor"),
        (["--worker", "owner-agent", "--batch-size", "0"], "--batch-size"),
        (["--worker", "owner-agent", "--batch-size", "many"], "--batch-size"),
    ],
)
def test_the_command_refuses_bad_arguments(worker, args, option):
    with pytest.raises(CommandError, match=option):
        _call(*args)


# --- background extraction ----------------------------------------------------------------


@pytest.fixture
def background(settings):
    settings.MEMORYHUB_GRAPH = {**settings.MEMORYHUB_GRAPH, "extraction_mode": "background"}


def test_background_mode_extracts_after_the_commit(
    background, worker, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as queued:
        memory = _memories(worker, TEXTS[:1])[0]
    memory.refresh_from_db()
    assert memory.extraction_status == ExtractionStatus.PENDING
    assert not Entity.objects.filter(source_memory=memory).exists()
    assert len(_extractions(queued)) == 1  # the task goes to the queue once the write commits

    assert extract_memory_graph(memory.pk) == "done"
    memory.refresh_from_db()
    assert memory.extraction_status == ExtractionStatus.DONE
    assert ("Alice Chen", "OWNS", "billing service") in _triples(memory)
    graph = _graph(worker)
    assert extract_memory_graph(memory.pk) == "done"  # twice: nothing changes
    assert _graph(worker) == graph
    shortterm_memory_delete(memory=memory)
    assert extract_memory_graph(memory.pk) == "gone"


def test_the_queued_task_runs_on_the_task_cluster(
    background, worker, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # the cluster runs tasks inline here
        memory = _memories(worker, TEXTS[:1])[0]
    memory.refresh_from_db()
    assert memory.extraction_status == ExtractionStatus.DONE
    assert _entity(memory, "Alice Chen")


def test_background_updates_keep_edits_and_confirmations(
    background, worker, django_capture_on_commit_callbacks
):
    memory = _memories(worker, TEXTS[:1])[0]
    extract_memory_graph(memory.pk)
    redis = _entity(memory, "Redis")
    Entity.objects.filter(pk=redis.pk).update(edited=True, description="kept")
    postgres = _entity(memory, "PostgreSQL")
    confirmed = get_extractor("heuristic").extract("The billing service uses PostgreSQL.")
    with django_capture_on_commit_callbacks() as queued:
        shortterm_chunks_update(
            memory=memory,
            updates=[
                {"chunk_id": memory.chunks.get().pk, "new_content": TEXTS[1] + " " + TEXTS[0]}
            ],
            confirmed=confirmed,
        )
    assert len(_extractions(queued)) == 1
    memory.refresh_from_db()
    assert memory.extraction_status == ExtractionStatus.PENDING
    assert _entity(memory, "PostgreSQL").confidence > postgres.confidence  # confirmed already
    assert _entity(memory, "Redis").description == "kept"
    extract_memory_graph(memory.pk)
    assert _entity(memory, "Redis").description == "kept"
    assert _entity(memory, "Bob Martins")


def test_the_sweep_picks_up_a_lost_task_after_its_grace(background, worker):
    memory = _memories(worker, TEXTS[:1])[0]  # no commit here: the task is never queued
    assert extraction_sweep() == {"done": 0, "failed": 0, "gone": 0}  # may still be queued
    assert extraction_sweep(grace=timedelta(0)) == {"done": 1, "failed": 0, "gone": 0}
    memory.refresh_from_db()
    assert memory.extraction_status == ExtractionStatus.DONE and memory.entities.exists()


def test_the_sweep_extracts_in_batches(background, worker, monkeypatch):
    memories = _memories(worker, TEXTS + ["Carol Diaz owns the ledger service."] * 2)
    extractor_class = type(get_extractor())
    batches = []
    extract_many = extractor_class.extract_many

    def spy(self, texts):
        batches.append(len(texts))
        return extract_many(self, texts)

    monkeypatch.setattr(extractor_class, "extract_many", spy)
    outcome = extraction_sweep(grace=timedelta(0), batch_size=2)
    assert outcome == {"done": 5, "failed": 0, "gone": 0}
    assert batches == [2, 2, 1]  # one extract_many call per batch
    assert all(m.entities.exists() for m in memories)


def test_the_inline_mode_stores_the_graph_with_the_write(
    worker, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as queued:
        memory = _memories(worker, TEXTS[:1])[0]
    memory.refresh_from_db()
    assert memory.extraction_status == ExtractionStatus.DONE and not _extractions(queued)


def test_chunks_appended_are_read_after_the_few_before_them_and_add_to_the_graph(
    worker, monkeypatch
):
    from tiers.memory_graph import memory_graph

    memory = shortterm_memory_create(
        worker=worker,
        title="Team log",
        chunks=[{"content": text} for text in [*TEXTS, "Nadia Haddad joined the search team."]],
    )
    before = _triples(memory)
    assert ("Alice Chen", "OWNS", "billing service") in before
    graph, read = memory_graph(), []
    original = graph.read
    monkeypatch.setattr(graph, "read", lambda text: read.append(text) or original(text))
    shortterm_chunks_add(memory=memory, chunks=[{"content": "She reports to Maria Lopez."}])
    # the new chunk after the three before it, not the whole memory again
    assert len(read) == 1 and TEXTS[0] not in read[0] and TEXTS[2] in read[0]
    after = _triples(memory)
    assert before <= after  # nothing taken away
    assert ("Nadia Haddad", "REPORTS_TO", "Maria Lopez") in after  # "She": the chunk before
    names = list(
        Entity.objects.filter(source_memory=memory).values_list("normalized_name", flat=True)
    )
    assert len(names) == len(set(names))  # a name stated again is the entity stored
    # a chunk rewritten: the memory is read whole again and its graph follows the text
    first = memory.chunks.order_by("chunk_order").first()
    shortterm_chunks_update(memory=memory, updates=[{"chunk_id": first.pk, "new_content": "Done."}])
    assert ("Alice Chen", "OWNS", "billing service") not in _triples(memory)
    assert ("Nadia Haddad", "REPORTS_TO", "Maria Lopez") in _triples(memory)


def test_a_memory_whose_extraction_failed_is_read_whole_when_it_grows(worker, monkeypatch):
    from tiers.memory_graph import memory_graph

    memory = shortterm_memory_create(
        worker=worker, title="Notes", chunks=[{"content": text} for text in TEXTS]
    )
    ShorttermMemory.objects.filter(pk=memory.pk).update(extraction_status=ExtractionStatus.FAILED)
    graph, read = memory_graph(), []
    original = graph.read
    monkeypatch.setattr(graph, "read", lambda text: read.append(text) or original(text))
    shortterm_chunks_add(memory=memory, chunks=[{"content": "Kafka runs on Kubernetes."}])
    assert TEXTS[0] in read[0]
    memory.refresh_from_db()
    assert memory.extraction_status == ExtractionStatus.DONE
