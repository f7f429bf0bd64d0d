"""Counts of one worker's stored memory, and their reconciliation with what the API (or
a sweep) acknowledged: after a fault nothing is lost, nothing is doubled, nothing is
half-written. Plain SQL on a DB-API cursor, so it reads the test database (Django's
connection) as well as a fault test's own embedded server (psycopg)."""

COUNTS = {
    "memories": "SELECT count(*) FROM tiers_shorttermmemory WHERE worker_id = %(w)s",
    "chunks": "SELECT count(*) FROM tiers_shorttermchunk WHERE worker_id = %(w)s",
    # Chunks of a memory that is gone, or memories without a chunk: half-written.
    "orphan_chunks": """SELECT count(*) FROM tiers_shorttermchunk c WHERE c.worker_id = %(w)s
        AND NOT EXISTS (SELECT 1 FROM tiers_shorttermmemory m WHERE m.id = c.memory_id)""",
    "memories_without_chunks": """SELECT count(*) FROM tiers_shorttermmemory m
        WHERE m.worker_id = %(w)s
        AND NOT EXISTS (SELECT 1 FROM tiers_shorttermchunk c WHERE c.memory_id = m.id)""",
    "postings": """SELECT count(*) FROM tiers_bm25posting
        WHERE worker_id = %(w)s AND tier = 'shortterm'""",
    "indexed_chunks": """SELECT count(DISTINCT chunk_id) FROM tiers_bm25posting
        WHERE worker_id = %(w)s AND tier = 'shortterm'""",
    "postings_of_missing_chunks": """SELECT count(*) FROM tiers_bm25posting p
        WHERE p.worker_id = %(w)s AND p.tier = 'shortterm'
        AND NOT EXISTS (SELECT 1 FROM tiers_shorttermchunk c WHERE c.id = p.chunk_id)""",
    "corpus_documents": """SELECT COALESCE(sum(doc_count), 0) FROM tiers_bm25corpus
        WHERE worker_id = %(w)s AND tier = 'shortterm'""",
    "entities": "SELECT count(*) FROM graph_entity WHERE worker_id = %(w)s",
    "relationships": "SELECT count(*) FROM graph_relationship WHERE worker_id = %(w)s",
    "versions": "SELECT count(*) FROM tiers_longtermchunk WHERE worker_id = %(w)s",
}


def worker_counts(cursor, worker_id: int) -> dict[str, int]:
    counts = {}
    for name, sql in COUNTS.items():
        cursor.execute(sql, {"w": worker_id})
        counts[name] = int(cursor.fetchone()[0])
    return counts


def reconcile(cursor, worker_id: int, *, memories: int, versions: int = 0) -> dict[str, int]:
    """Assert the worker holds exactly ``memories`` shortterm memories (and ``versions``
    longterm versions), each whole: chunked, every chunk in BM25 and counted in the
    corpus statistics, no chunk or posting left of a memory that is not there. Returns
    the counts (entities and relationships included, for the caller's own checks)."""
    counts = worker_counts(cursor, worker_id)
    expected = {
        "memories": memories,
        "versions": versions,
        "orphan_chunks": 0,
        "memories_without_chunks": 0,
        "postings_of_missing_chunks": 0,
        "indexed_chunks": counts["chunks"],
        "corpus_documents": counts["chunks"],
    }
    found = {name: counts[name] for name in expected}
    assert found == expected, f"worker {worker_id}: {found} != {expected} ({counts})"
    return counts
