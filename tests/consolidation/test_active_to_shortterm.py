"""Active → Shortterm migration: the seed's three scenarios, count resets, re-runs."""

import pytest

from consolidation.models import ConsolidationRun
from consolidation.services.active_to_shortterm import merge_sentences, migrate_active_memory
from review.models import MergeConflict
from tests.factories import TASK_TEMPLATE
from tiers.models import ShorttermChunk, ShorttermMemory
from tiers.services.active import active_memory_create, active_memory_update_sections
from tiers.services.shortterm import shortterm_chunks_update, shortterm_memory_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def thresholds(settings):
    # Hash embeddings (tests) score restatements lower than MiniLM does.
    settings.MEMORYHUB_MIGRATION = {**settings.MEMORYHUB_MIGRATION, "candidate_similarity": 0.45}


def _active(worker, notes: str):
    memory = active_memory_create(
        worker=worker,
        title="Sprint 12",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "Ship sprint 12"},
    )
    return active_memory_update_sections(memory=memory, sections={"notes": notes})


def _outcome(run, section="notes"):
    return next(o for o in run.outcomes if o["section_id"] == section)


def test_a_similar_section_without_conflict_is_merged(worker):
    memory = shortterm_memory_create(
        worker=worker,
        title="Auth",
        chunks=[{"content": "The API gateway uses JWT tokens for token-based authentication."}],
    )
    active = _active(
        worker,
        "The API gateway uses JWT tokens for token-based authentication. "
        "Tokens expire after one hour.",
    )
    run = migrate_active_memory(memory=active, trigger="api")
    outcome = _outcome(run)
    assert outcome["outcome"] == "merged" and outcome["ids"]["shortterm_memory_id"] == memory.pk
    chunk = memory.chunks.get()
    assert chunk.content == (
        "The API gateway uses JWT tokens for token-based authentication. "
        "Tokens expire after one hour."
    )
    active.refresh_from_db()
    assert active.sections["notes"]["update_count"] == 0
    assert _outcome(run, "objective")["outcome"] == "skipped"  # never updated


def test_a_changed_budget_becomes_a_conflict_and_leaves_the_chunk_alone(worker):
    memory = shortterm_memory_create(
        worker=worker,
        title="Budget",
        chunks=[{"content": "The Q3 budget for the marketing team is $50,000."}],
    )
    active = _active(worker, "The Q3 budget for the marketing team is $65,000.")
    run = migrate_active_memory(memory=active, trigger="api")
    assert _outcome(run)["outcome"] == "conflict"
    conflict = MergeConflict.objects.get()
    assert conflict.status == "pending" and conflict.shortterm_memory_id == memory.pk
    assert {r["code"] for r in conflict.reasons} >= {"number_changed"}
    assert conflict.conflicting_chunks[0]["similarity"] > 0.45
    assert memory.chunks.get().content == "The Q3 budget for the marketing team is $50,000."


def test_a_new_topic_creates_a_memory(worker):
    shortterm_memory_create(
        worker=worker, title="Budget", chunks=[{"content": "The Q3 budget is $50,000."}]
    )
    active = _active(worker, "Kubernetes upgrades happen on the first Monday of each month.")
    run = migrate_active_memory(memory=active, trigger="api")
    outcome = _outcome(run)
    assert outcome["outcome"] == "created"
    created = ShorttermMemory.objects.get(pk=outcome["ids"]["shortterm_memory_id"])
    assert created.title == "Sprint 12 — Notes" and created.metadata == {
        "active_memory_id": active.pk,
        "section_id": "notes",
    }
    assert created.chunks.get().content.startswith("Kubernetes upgrades")


def test_a_second_run_finds_nothing_to_do(worker):
    active = _active(worker, "Kubernetes upgrades happen on the first Monday of each month.")
    migrate_active_memory(memory=active, trigger="api")
    active.refresh_from_db()
    again = migrate_active_memory(memory=active, trigger="sweep")
    assert {o["outcome"] for o in again.outcomes} == {"skipped"}
    assert ShorttermMemory.objects.count() == 1 and ConsolidationRun.objects.count() == 2


def test_a_failure_midway_leaves_the_section_to_the_next_run(worker, monkeypatch):
    from consolidation.services import active_to_shortterm as migration

    active = _active(worker, "Kubernetes upgrades happen on the first Monday of each month.")

    def crash(*args, **kwargs):
        raise RuntimeError("crash after the memory was written")

    monkeypatch.setattr(migration, "active_section_reset_count", crash)
    failed = _outcome(migrate_active_memory(memory=active, trigger="sweep"))
    assert failed.pop("ms") >= 0
    assert failed == {
        "active_memory_id": active.pk,
        "section_id": "notes",
        "outcome": "error",
        "detail": "RuntimeError: crash after the memory was written",
    }
    active.refresh_from_db()
    assert active.sections["notes"]["update_count"] == 1 and not ShorttermChunk.objects.exists()
    monkeypatch.undo()
    assert _outcome(migrate_active_memory(memory=active, trigger="sweep"))["outcome"] == "created"


def test_merge_is_a_sentence_union_in_order():
    assert (
        merge_sentences("A is one. B is two.", "b is two! C is three.")
        == "A is one. B is two. C is three."
    )


def test_the_api_migrates_one_memory_and_lists_runs(
    owner_client, other_client, anon_client, worker
):
    from tests.helpers import assert_error

    active = _active(worker, "Kubernetes upgrades happen on the first Monday of each month.")
    url = f"/api/v1/workers/{worker.pk}/active/{active.pk}/migrate"
    assert_error(other_client.post(url), 404, "not_found")
    assert_error(anon_client.post(url), 401)
    assert not ShorttermMemory.objects.exists()
    body = owner_client.post(url).json()
    assert body["trigger"] == "api" and {o["outcome"] for o in body["outcomes"]} == {
        "created",
        "skipped",
    }
    runs = owner_client.get(f"/api/v1/workers/{worker.pk}/migrations/").json()
    assert [r["id"] for r in runs["results"]] == [body["id"]]
    assert_error(other_client.get(f"/api/v1/workers/{worker.pk}/migrations/"), 404)


@pytest.mark.parametrize(
    "consolidate, runs",
    [("consolidate", "consolidation/runs"), ("migrate", "migrations/")],
    ids=["current names", "earlier names"],
)
def test_both_names_of_the_endpoints_answer_the_same(
    owner_client, other_client, worker, consolidate, runs
):
    from tests.helpers import assert_error

    active = _active(worker, "Kubernetes upgrades happen on the first Monday of each month.")
    url = f"/api/v1/workers/{worker.pk}/active/{active.pk}/{consolidate}"
    assert_error(other_client.post(url), 404, "not_found")
    body = owner_client.post(url).json()
    assert body["trigger"] == "api" and body["worker"] == worker.pk
    listed = owner_client.get(f"/api/v1/workers/{worker.pk}/{runs}").json()
    assert [r["id"] for r in listed["results"]] == [body["id"]]
    assert_error(other_client.get(f"/api/v1/workers/{worker.pk}/{runs}"), 404)
    queued = owner_client.post(f"/api/v1/workers/{worker.pk}/{runs}")
    assert queued.status_code == 202 and queued.json()["task_id"]


def test_the_schema_lists_the_earlier_names_as_deprecated(client):
    schema = client.get("/api/schema/?format=json").json()["paths"]
    assert "deprecated" not in schema["/api/v1/workers/{worker_id}/consolidation/runs"]["get"]
    assert schema["/api/v1/workers/{worker_id}/migrations/"]["get"]["deprecated"] is True
    assert schema["/api/v1/workers/{worker_id}/active/{memory_id}/migrate"]["post"]["deprecated"]


def test_the_consolidate_command_and_its_earlier_name(worker):
    from io import StringIO

    from django.core.management import call_command

    _active(worker, "Kubernetes upgrades happen on the first Monday of each month.")
    out = StringIO()
    call_command("consolidate", "--worker", worker.name, stdout=out)
    assert "1 active memory consolidated: 1 created, 2 skipped" in out.getvalue()
    out = StringIO()
    call_command("migrate_memory", stdout=out)
    assert "0 active memories migrated: nothing to do" in out.getvalue()


def test_the_sweep_migrates_every_eligible_memory_once(worker, other_worker):
    from io import StringIO

    from django.core.management import call_command

    from consolidation.services.active_to_shortterm import migration_sweep

    mine = _active(worker, "Kubernetes upgrades happen on the first Monday of each month.")
    theirs = _active(other_worker, "The data team moved the export pipeline to Spark.")
    active_memory_create(
        worker=worker,
        title="idle",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "x"},
    )
    assert len(migration_sweep(worker_id=worker.pk)) == 1
    assert ShorttermMemory.objects.filter(worker=worker).count() == 1
    assert not ShorttermMemory.objects.filter(worker=other_worker).exists()
    out = StringIO()
    call_command("migrate_memory", stdout=out)
    assert "1 active memory migrated: 1 created, 2 skipped" in out.getvalue()
    assert migration_sweep() == []  # nothing left
    assert {mine.pk, theirs.pk} == set(
        ConsolidationRun.objects.values_list("outcomes__0__active_memory_id", flat=True)
    )


def test_the_api_queues_a_sweep(owner_client, worker):
    _active(worker, "Kubernetes upgrades happen on the first Monday of each month.")
    response = owner_client.post(f"/api/v1/workers/{worker.pk}/migrations/")
    assert response.status_code == 202 and response.json()["task_id"]
    assert (
        ShorttermMemory.objects.filter(worker=worker).count() == 1
    )  # the test cluster runs tasks inline


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_migrate_a_section_once(worker):
    import threading

    from django.db import connection

    active = _active(worker, "Kubernetes upgrades happen on the first Monday of each month.")
    barrier = threading.Barrier(2)
    outcomes, errors = [], []

    def sweep():
        try:
            barrier.wait()
            run = migrate_active_memory(memory=active, trigger="sweep")
            outcomes.append(_outcome(run)["outcome"])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(outcomes) == ["created", "skipped"]
    assert ShorttermMemory.objects.filter(worker=worker).count() == 1


def test_auto_resolve_adds_new_graph_and_reports_conflicts(owner_client, other_client, worker):
    from graph.models import Entity, Relationship
    from tests.helpers import assert_error

    shortterm = shortterm_memory_create(
        worker=worker,
        title="Team",
        chunks=[
            {
                "content": (
                    "Marco Rossi reports to Elena Petrova. The billing service uses PostgreSQL."
                )
            }
        ],
    )
    active = _active(worker, "Marco Rossi reports to Grace Okafor. The billing service uses Redis.")
    url = f"/api/v1/workers/{worker.pk}/active/{active.pk}/auto-resolve"
    assert_error(other_client.post(url, {"shortterm_memory_id": shortterm.pk}, format="json"), 404)
    response = owner_client.post(
        url, {"shortterm_memory_id": shortterm.pk, "section": "Notes"}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["active_content"].startswith("Notes: Marco Rossi reports to Grace Okafor")
    assert body["similar_chunks"][0]["chunk_id"] == shortterm.chunks.get().pk
    assert {e["name"] for e in body["entity_differences"]["new"]} >= {"Grace Okafor", "Redis"}
    assert [c["reason"] for c in body["relationship_differences"]["conflicts"]] == [
        "functional_relationship_changed"
    ]
    assert [(r["type"]) for r in body["relationship_differences"]["new"]] == ["USES"]
    assert Entity.objects.filter(source_memory=shortterm, name="Grace Okafor").exists()
    assert not Relationship.objects.filter(
        source_memory=shortterm, to_entity__name="Grace Okafor"
    ).exists()
    assert_error(owner_client.post(url, {"shortterm_memory_id": 999999}, format="json"), 404)
    assert_error(
        owner_client.post(
            url, {"shortterm_memory_id": shortterm.pk, "section": "budget"}, format="json"
        ),
        400,
        None,
        "section",
    )


def test_what_auto_resolve_adds_keeps_its_ids_when_the_chunks_change_after(worker):
    """Seed 003's memorizer order: auto_resolve, then update the chunks, then resolve the
    entities by the ids auto_resolve gave — the chunk update's re-extraction keeps them."""
    from consolidation.services.auto_resolve import auto_resolve
    from graph.models import Entity

    shortterm = shortterm_memory_create(
        worker=worker, title="Team", chunks=[{"content": "Marco Rossi works on billing."}]
    )
    active = _active(worker, "Marco Rossi reports to Grace Okafor, who leads Redis upgrades.")
    result = auto_resolve(active=active, shortterm=shortterm, section="notes", limit=3)
    added = {e["id"] for e in result["entity_differences"]["new"]}
    assert added
    chunk = shortterm.chunks.get()
    shortterm_chunks_update(
        memory=shortterm,
        updates=[{"chunk_id": chunk.pk, "new_content": "Marco Rossi moved to the search team."}],
    )
    assert set(Entity.objects.filter(pk__in=added).values_list("pk", flat=True)) == added


def test_a_merge_keeps_the_graph_and_raises_confidence_in_what_it_confirms(worker):
    from graph.models import Entity, Relationship

    memory = shortterm_memory_create(
        worker=worker,
        title="Billing",
        chunks=[
            {"content": "Alice Chen owns the billing service. The billing service uses PostgreSQL."}
        ],
    )
    before = {
        e.name: (e.pk, e.confidence, e.first_seen)
        for e in Entity.objects.filter(source_memory=memory)
    }
    owns = Relationship.objects.get(source_memory=memory, type="OWNS")
    active = _active(
        worker,
        "Alice Chen owns the billing service. The billing service uses PostgreSQL. "
        "The billing service uses Redis for sessions.",
    )
    assert _outcome(migrate_active_memory(memory=active, trigger="api"))["outcome"] == "merged"
    after = {e.name: e for e in Entity.objects.filter(source_memory=memory)}
    assert set(after) == set(before) | {"Redis"}
    for name, (pk, confidence, first_seen) in before.items():
        assert after[name].pk == pk and after[name].first_seen == first_seen  # the same rows, kept
        confirmed = name != "Billing"  # the memory's title, which the section does not state
        expected = confidence + (1 - confidence) * 0.25 if confirmed else confidence
        assert after[name].confidence == pytest.approx(expected), name
    assert after["Redis"].confidence < after["PostgreSQL"].confidence  # new: not confirmed yet
    owns_after = Relationship.objects.get(source_memory=memory, type="OWNS")
    assert owns_after.pk == owns.pk and owns_after.confidence > owns.confidence


def test_a_conflict_lists_entity_and_relationship_differences(worker):
    shortterm_memory_create(
        worker=worker,
        title="Team",
        chunks=[
            {"content": "Marco Rossi reports to Elena Petrova. Marco Rossi works for Acme Corp."}
        ],
    )
    active = _active(
        worker, "Marco Rossi reports to Grace Okafor. Marco Rossi works for Acme Corp."
    )
    assert _outcome(migrate_active_memory(memory=active, trigger="api"))["outcome"] == "conflict"
    conflict = MergeConflict.objects.get()
    assert conflict.entity_differences["new"] == [{"name": "Grace Okafor", "type": "person"}]
    [changed] = conflict.relationship_differences["conflicts"]
    assert (
        changed["reason"] == "functional_relationship_changed"
        and changed["incoming"]["to"] == "Grace Okafor"
    )
    assert changed["existing"]["to"] == "elena petrova"
    assert {"relationship_overlap", "entity_overlap", "similarity"} <= set(
        conflict.conflicting_chunks[0]
    )


def test_candidates_are_judged_on_their_stored_graph_not_extracted_again(worker, monkeypatch):
    from graph.extraction.parser import ParserExtractor
    from tiers.models import ExtractionStatus

    memory = shortterm_memory_create(
        worker=worker, title="Team", chunks=[{"content": "Marco Rossi reports to Elena Petrova."}]
    )
    pending = shortterm_memory_create(
        worker=worker,
        title="Team too",
        chunks=[{"content": "Marco Rossi reports to Elena Petrova and works in Berlin."}],
    )
    ShorttermMemory.objects.filter(pk=pending.pk).update(extraction_status=ExtractionStatus.FAILED)
    extracted = []
    original = ParserExtractor.extract
    monkeypatch.setattr(
        ParserExtractor,
        "extract",
        lambda self, text: extracted.append(text) or original(self, text),
    )
    active = _active(worker, "Marco Rossi reports to Grace Okafor.")
    assert _outcome(migrate_active_memory(memory=active, trigger="api"))["outcome"] == "conflict"
    # The candidate whose memory has no stored graph (not the other one), then the section
    # in whole for the conflict (the decision read its quick extraction).
    assert extracted == [
        "Marco Rossi reports to Elena Petrova and works in Berlin.",
        "Marco Rossi reports to Grace Okafor.",
    ]
    conflict = MergeConflict.objects.get()
    assert {r["code"] for r in conflict.reasons} >= {"functional_relationship_changed"}
    assert memory.pk in {c["memory_id"] for c in conflict.conflicting_chunks}


def test_a_section_and_its_candidates_are_parsed_in_one_batch(worker, monkeypatch):
    from consolidation.services import active_to_shortterm
    from memoryhub import nlp

    nlp.forget_parses()
    shortterm_memory_create(
        worker=worker,
        title="Budget",
        chunks=[{"content": "The Q3 budget for the marketing team is $50,000."}],
    )
    batches = []

    def recording(texts, **kwargs):
        batches.append(list(texts))
        return nlp.parse_many(texts, **kwargs)

    monkeypatch.setattr(active_to_shortterm, "parse_many", recording)
    active = _active(worker, "The Q3 budget for the marketing team is $65,000.")
    migrate_active_memory(memory=active, trigger="api")
    section = "The Q3 budget for the marketing team is $65,000."
    assert [section, "The Q3 budget for the marketing team is $50,000."] in batches


def test_a_candidate_is_parsed_once_and_its_parse_kept_for_the_next_judgement(worker, monkeypatch):
    from consolidation.services import active_to_shortterm
    from memoryhub import nlp
    from tiers.models import ShorttermChunkParse

    stored = "The Q4 budget for the design team is $40,000."
    nlp.forget_parses()  # written by an agent: nothing parsed the chunk's text on its own
    memory = shortterm_memory_create(worker=worker, title="Budget", chunks=[{"content": stored}])
    chunk = memory.chunks.get()
    assert not ShorttermChunkParse.objects.filter(chunk=chunk).exists()
    batches = []

    def recording(texts, **kwargs):
        batches.append(list(texts))
        return nlp.parse_many(texts, **kwargs)

    monkeypatch.setattr(active_to_shortterm, "parse_many", recording)
    first = "The Q4 budget for the design team is $45,000."
    migrate_active_memory(memory=_active(worker, first), trigger="api")
    assert [first, stored] in batches  # parsed with the section, then kept
    assert ShorttermChunkParse.objects.filter(chunk=chunk).exists()

    nlp.forget_parses()  # another process, or much later: the kept parse is read back
    batches.clear()
    second = "The Q4 budget for the design team is $48,000."
    run = migrate_active_memory(memory=_active(worker, second), trigger="api")
    assert _outcome(run)["outcome"] == "conflict"
    assert batches == [[second]]  # the section alone is parsed


def test_a_kept_parse_goes_with_its_content(worker):
    from memoryhub import nlp
    from tiers.models import ShorttermChunkParse

    text = "Nadia Rahman leads the search revamp in Lisbon."
    nlp.parse(text)  # parsed before the write, as consolidation parses a section
    memory = shortterm_memory_create(worker=worker, title="Search", chunks=[{"content": text}])
    chunk = memory.chunks.get()
    kept = ShorttermChunkParse.objects.get(chunk=chunk)
    assert nlp.remember_stored(text, bytes(kept.data))
    shortterm_chunks_update(
        memory=memory, updates=[{"chunk_id": chunk.pk, "new_content": "Nadia moved to Porto."}]
    )
    assert not ShorttermChunkParse.objects.filter(chunk=chunk).exists()  # not parsed: none
    nlp.parse("Nadia moved to Porto, Portugal.")
    shortterm_chunks_update(
        memory=memory,
        updates=[{"chunk_id": chunk.pk, "new_content": "Nadia moved to Porto, Portugal."}],
    )
    assert ShorttermChunkParse.objects.filter(chunk=chunk).exists()
    memory.delete()  # the database deletes the parse with its chunk
    assert not ShorttermChunkParse.objects.exists()


def test_a_judged_chunk_keeps_what_the_judge_read_of_it_with_its_parse(worker, monkeypatch):
    from consolidation import claims as claims_module
    from memoryhub import nlp
    from tiers.models import ShorttermChunkParse

    stored = "The Q2 budget for the platform team is $80,000."
    nlp.forget_parses()  # written by an agent: nothing read the chunk's text on its own
    memory = shortterm_memory_create(worker=worker, title="Budget", chunks=[{"content": stored}])
    chunk = memory.chunks.get()
    first = "The Q2 budget for the platform team is $95,000."
    run = migrate_active_memory(memory=_active(worker, first), trigger="api")
    assert _outcome(run)["outcome"] == "conflict"

    nlp.forget_parses()  # another process: the parse and the claims come back from the row
    claims_module.claims.cache_clear()
    claims_module.forget_spellings()
    assert nlp.remember_stored(stored, bytes(ShorttermChunkParse.objects.get(chunk=chunk).data))
    assert claims_module.has_kept_readings(stored)

    read = []
    real = claims_module.find_values
    monkeypatch.setattr(claims_module, "find_values", lambda text: read.append(text) or real(text))
    nlp.forget_parses()
    claims_module.claims.cache_clear()
    claims_module.forget_spellings()
    second = "The Q2 budget for the platform team is $99,000."
    run = migrate_active_memory(memory=_active(worker, second), trigger="api")
    assert _outcome(run)["outcome"] == "conflict"
    assert read == [second]  # the stored chunk's claims are read back, not read again


def test_a_merge_reads_only_the_chunk_it_grows_and_adds_to_the_graph(worker, monkeypatch):
    from graph.models import Relationship
    from tiers.memory_graph import memory_graph

    others = [
        "Maria Lopez owns the search service.",
        "Bob Martins leads Project Atlas.",
        "Project Atlas uses Kafka.",
    ]
    memory = shortterm_memory_create(
        worker=worker,
        title="Platform",
        chunks=[
            {"content": "The API gateway uses JWT tokens for token-based authentication."},
            *({"content": text} for text in others),
        ],
    )
    graph, read = memory_graph(), []
    original = graph.read
    monkeypatch.setattr(graph, "read", lambda text: read.append(text) or original(text))
    active = _active(
        worker,
        "The API gateway uses JWT tokens for token-based authentication. "
        "Deepak Rao works for Acme Corp.",
    )
    outcome = _outcome(migrate_active_memory(memory=active, trigger="api"))
    assert outcome["outcome"] == "merged" and outcome["ids"]["merged_by"] == "sentences"
    assert read and not any(text in read[-1] for text in others)  # the grown chunk alone
    triples = {
        (r.from_entity.name, r.type, r.to_entity.name)
        for r in Relationship.objects.filter(source_memory=memory).select_related(
            "from_entity", "to_entity"
        )
    }
    assert ("Maria Lopez", "OWNS", "search service") in triples  # kept
    assert ("Deepak Rao", "WORKS_FOR", "Acme Corp") in triples  # added
