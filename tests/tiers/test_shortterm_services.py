import io

import pytest
from django.db import connection

from tiers.services import shortterm
from tiers.services.shortterm import shortterm_memory_create

pytestmark = pytest.mark.django_db


def _analyze_count() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush(); SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'tiers_bm25posting'"
        )
        return cursor.fetchone()[0]


def test_a_bulk_import_refreshes_the_bm25_statistics(worker, monkeypatch):
    monkeypatch.setattr(shortterm, "BULK_ANALYZE_CHUNKS", 3)
    monkeypatch.setattr(shortterm, "BULK_ANALYZE_GROWTH", 0.0)  # whatever the table holds
    before = _analyze_count()
    shortterm_memory_create(
        worker=worker, title="small", chunks=[{"content": "one"}, {"content": "two"}]
    )
    assert _analyze_count() == before
    shortterm_memory_create(
        worker=worker, title="bulk", chunks=[{"content": f"fact {i}"} for i in range(3)]
    )
    assert _analyze_count() == before + 1


def test_an_import_small_beside_the_table_leaves_the_statistics_to_autovacuum(worker, monkeypatch):
    monkeypatch.setattr(shortterm, "BULK_ANALYZE_CHUNKS", 3)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM tiers_shorttermchunk")  # (rolled back with the test)
        cursor.execute("ANALYZE tiers_shorttermchunk")
    shortterm_memory_create(
        worker=worker, title="bulk", chunks=[{"content": f"fact {i}"} for i in range(20)]
    )
    before = _analyze_count()  # the planner now knows of 20 chunks
    shortterm_memory_create(
        worker=worker, title="small share", chunks=[{"content": f"note {i}"} for i in range(3)]
    )
    assert _analyze_count() == before  # 3 < 20 % of 20
    shortterm_memory_create(
        worker=worker, title="large share", chunks=[{"content": f"item {i}"} for i in range(6)]
    )
    assert _analyze_count() == before + 1  # 6 ≥ 20 % of 20


def _vacuum_count(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush(); SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = %s", [table])
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_deleting_a_large_worker_or_memory_vacuums_the_shortterm_tables(settings):
    """Once the delete commits, the task (run inline by the test cluster) vacuums the chunk
    and BM25 tables; a small delete leaves them to autovacuum."""
    from memoryhub.services.workers import worker_delete
    from tests.factories import WorkerFactory
    from tiers.services.shortterm import shortterm_memory_delete

    settings.MEMORYHUB_CHUNKING = {**settings.MEMORYHUB_CHUNKING, "vacuum_after_delete": 3}
    worker = WorkerFactory()
    small = shortterm_memory_create(
        worker=worker, title="small", chunks=[{"content": "one"}, {"content": "two"}]
    )
    shortterm_memory_create(
        worker=worker, title="bulk", chunks=[{"content": f"fact {i}"} for i in range(3)]
    )
    before = {
        table: _vacuum_count(table) for table in ("tiers_shorttermchunk", "tiers_bm25posting")
    }

    shortterm_memory_delete(memory=small)
    assert {table: _vacuum_count(table) for table in before} == before

    worker_delete(worker=worker)
    assert {table: _vacuum_count(table) for table in before} == {
        table: n + 1 for table, n in before.items()
    }


def test_the_vacuum_refuses_to_run_inside_a_transaction():
    from memoryhub.errors import DomainError
    from tiers.services.maintenance import shortterm_tables_vacuum

    with pytest.raises(DomainError):
        shortterm_tables_vacuum()


def test_nearest_chunks_are_the_workers_own_most_similar_first(worker):
    from tests.factories import WorkerFactory
    from tiers.search import nearest_chunks

    ops = shortterm_memory_create(
        worker=worker,
        title="ops",
        chunks=[
            {"content": "Backups run nightly at 02:00 UTC."},
            {"content": "Deploys happen on Tuesdays."},
        ],
    )
    auth = shortterm_memory_create(
        worker=worker, title="auth", chunks=[{"content": "Tokens expire after one hour."}]
    )
    shortterm_memory_create(
        worker=WorkerFactory(),
        title="other",
        chunks=[{"content": "Backups run nightly at 02:00 UTC."}],
    )
    text = "nightly backups at 02:00 UTC"

    mine = nearest_chunks(text=text, worker_id=worker.pk, limit=10)
    assert [c["memory_id"] for c in mine].count(ops.pk) == 2 and len(
        mine
    ) == 3  # never the other worker's
    assert (
        mine[0]["content"] == "Backups run nightly at 02:00 UTC." and mine[0]["similarity"] > 0.5
    )  # hash embeddings in tests
    assert [c["similarity"] for c in mine] == sorted((c["similarity"] for c in mine), reverse=True)
    in_auth = nearest_chunks(text=text, worker_id=worker.pk, memory_id=auth.pk, limit=10)
    assert [c["memory_id"] for c in in_auth] == [auth.pk]


@pytest.mark.django_db(transaction=True)
def test_a_delete_that_takes_most_of_the_graph_rebuilds_it(settings):
    """The HNSW graph keeps deleted elements that searches still walk: a delete that took
    a large share of it rebuilds it (the command does the same on demand)."""
    from django.core.management import call_command

    from memoryhub.services.workers import worker_delete
    from tests.factories import WorkerFactory
    from tiers.services.maintenance import shortterm_tables_vacuum

    settings.MEMORYHUB_CHUNKING = {**settings.MEMORYHUB_CHUNKING, "vacuum_after_delete": 3}
    big, small = WorkerFactory(), WorkerFactory()
    shortterm_memory_create(
        worker=big, title="bulk", chunks=[{"content": f"fact number {i}"} for i in range(12)]
    )
    shortterm_memory_create(
        worker=small, title="kept", chunks=[{"content": f"note {i}"} for i in range(3)]
    )

    def index_oid():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 'shortterm_chunk_hnsw'::regclass::oid")
            return cursor.fetchone()[0]

    before = index_oid()
    worker_delete(worker=big)  # 12 of 15 chunks: rebuilt (a new index, a new oid)
    after = index_oid()
    assert after != before
    assert not shortterm_tables_vacuum(deleted=1)["reindexed"]  # 1 of 4: kept
    assert index_oid() == after
    call_command("vacuum_shortterm", "--reindex", stdout=io.StringIO())
    assert index_oid() != after


def test_vectors_sent_as_one_binary_array_are_stored_exactly(worker):
    """Chunks' vectors travel as one binary vector[] parameter: what is stored is the
    embedder's float32 vector, bit for bit, in chunk order."""
    import numpy as np

    from memoryhub.providers.embeddings import binary_cursor, get_embedder, vector_array

    texts = ["alpha beta gamma", "deploys on Tuesday", "backups at night"]
    memory = shortterm_memory_create(
        worker=worker, title="v", chunks=[{"content": t} for t in texts]
    )
    stored = np.stack(
        [
            np.asarray(v, dtype=np.float32)
            for v in memory.chunks.order_by("chunk_order").values_list("embedding", flat=True)
        ]
    )
    assert np.array_equal(stored, get_embedder().embed_documents(texts))
    with binary_cursor() as cursor:  # the empty array is a valid parameter too
        cursor.execute(
            "SELECT cardinality(%s::vector[])", [vector_array(np.zeros((0, 384)), cursor)]
        )
        assert cursor.fetchone()[0] == 0


@pytest.mark.django_db(transaction=True)
def test_deleting_a_large_worker_in_the_admin_queues_the_upkeep_too(client, settings):
    from django.urls import reverse

    from memoryhub.models import Worker
    from tests.factories import StaffFactory, WorkerFactory

    settings.MEMORYHUB_CHUNKING = {**settings.MEMORYHUB_CHUNKING, "vacuum_after_delete": 3}
    worker = WorkerFactory()
    shortterm_memory_create(
        worker=worker, title="bulk", chunks=[{"content": f"fact {i}"} for i in range(3)]
    )
    before = _vacuum_count("tiers_shorttermchunk")
    client.force_login(StaffFactory())
    response = client.post(
        reverse("admin:memoryhub_worker_delete", args=[worker.pk]), {"post": "yes"}
    )
    assert response.status_code == 302 and not Worker.objects.filter(pk=worker.pk).exists()
    assert _vacuum_count("tiers_shorttermchunk") == before + 1


def test_without_a_graph_plugged_in_memories_are_stored_and_read_with_an_empty_graph(worker):
    """The tiers reach the graph only through their port (tiers.memory_graph): with none
    plugged in, a memory is stored, searched and read; it just has no graph."""
    from graph.models import Entity
    from tiers import memory_graph as port
    from tiers.search import search

    plugged = port.memory_graph()
    port.plug_memory_graph(port.NoGraph())
    try:
        memory = shortterm_memory_create(
            worker=worker, title="Ops", chunks=[{"content": "Alice Chen owns the billing service."}]
        )
        hits = search(worker=worker, query="billing service owner", mode="bm25", with_graph=True)
    finally:
        port.plug_memory_graph(plugged)
    assert not Entity.objects.filter(source_memory=memory).exists()
    assert hits[0].graph == {"entities": [], "relationships": []}
    assert search(worker=worker, query="billing", mode="bm25", with_graph=True)[0].graph == {
        "entities": [],
        "relationships": [],
    }  # its graph was never extracted: still empty
