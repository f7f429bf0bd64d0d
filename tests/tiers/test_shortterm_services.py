import pytest
from django.db import connection

from tiers.services import shortterm
from tiers.services.shortterm import shortterm_memory_create

pytestmark = pytest.mark.django_db


def _analyze_count() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush(); SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'tiers_bm25posting'")
        return cursor.fetchone()[0]


def test_a_bulk_import_refreshes_the_bm25_statistics(worker, monkeypatch):
    monkeypatch.setattr(shortterm, "BULK_ANALYZE_CHUNKS", 3)
    monkeypatch.setattr(shortterm, "BULK_ANALYZE_GROWTH", 0.0)  # whatever the table holds
    before = _analyze_count()
    shortterm_memory_create(worker=worker, title="small", chunks=[{"content": "one"}, {"content": "two"}])
    assert _analyze_count() == before
    shortterm_memory_create(worker=worker, title="bulk", chunks=[{"content": f"fact {i}"} for i in range(3)])
    assert _analyze_count() == before + 1


def test_an_import_small_beside_the_table_leaves_the_statistics_to_autovacuum(worker, monkeypatch):
    monkeypatch.setattr(shortterm, "BULK_ANALYZE_CHUNKS", 3)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM tiers_shorttermchunk")  # (rolled back with the test)
        cursor.execute("ANALYZE tiers_shorttermchunk")
    shortterm_memory_create(worker=worker, title="bulk", chunks=[{"content": f"fact {i}"} for i in range(20)])
    before = _analyze_count()  # the planner now knows of 20 chunks
    shortterm_memory_create(worker=worker, title="small share", chunks=[{"content": f"note {i}"} for i in range(3)])
    assert _analyze_count() == before  # 3 < 20 % of 20
    shortterm_memory_create(worker=worker, title="large share", chunks=[{"content": f"item {i}"} for i in range(6)])
    assert _analyze_count() == before + 1  # 6 ≥ 20 % of 20
