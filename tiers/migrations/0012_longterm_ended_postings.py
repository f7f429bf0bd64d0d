"""The BM25 postings of ended longterm versions move to a tier key of their own
("longterm_ended"), so that a search of the current versions reads only theirs; the
statistics of both keys are computed again from the postings."""

from django.db import migrations

KEYS = ("longterm", "longterm_ended")

FORWARD = [
    """UPDATE tiers_bm25posting p SET tier = 'longterm_ended'
       FROM tiers_longtermchunk c
       WHERE p.tier = 'longterm' AND p.chunk_id = c.id AND c.end_date IS NOT NULL""",
    "DELETE FROM tiers_bm25term WHERE tier IN ('longterm', 'longterm_ended')",
    """INSERT INTO tiers_bm25term (worker_id, tier, term, df)
       SELECT worker_id, tier, term, count(*) FROM tiers_bm25posting
       WHERE tier IN ('longterm', 'longterm_ended')
       GROUP BY worker_id, tier, term ORDER BY worker_id, term""",
    "DELETE FROM tiers_bm25corpus WHERE tier IN ('longterm', 'longterm_ended')",
    """INSERT INTO tiers_bm25corpus (worker_id, tier, doc_count, total_length)
       SELECT worker_id, tier, count(*), coalesce(sum(doc_length), 0)
       FROM (SELECT DISTINCT worker_id, tier, chunk_id, doc_length FROM tiers_bm25posting
             WHERE tier IN ('longterm', 'longterm_ended')) d
       GROUP BY worker_id, tier""",
]

BACKWARD = [
    "UPDATE tiers_bm25posting SET tier = 'longterm' WHERE tier = 'longterm_ended'",
    "DELETE FROM tiers_bm25term WHERE tier IN ('longterm', 'longterm_ended')",
    """INSERT INTO tiers_bm25term (worker_id, tier, term, df)
       SELECT worker_id, tier, term, count(*) FROM tiers_bm25posting WHERE tier = 'longterm'
       GROUP BY worker_id, tier, term ORDER BY worker_id, term""",
    "DELETE FROM tiers_bm25corpus WHERE tier IN ('longterm', 'longterm_ended')",
    """INSERT INTO tiers_bm25corpus (worker_id, tier, doc_count, total_length)
       SELECT worker_id, tier, count(*), coalesce(sum(doc_length), 0)
       FROM (SELECT DISTINCT worker_id, tier, chunk_id, doc_length FROM tiers_bm25posting
             WHERE tier = 'longterm') d
       GROUP BY worker_id, tier""",
]


class Migration(migrations.Migration):
    dependencies = [("tiers", "0011_longterm")]

    operations = [
        migrations.RunSQL(sql=FORWARD, reverse_sql=BACKWARD),
    ]
