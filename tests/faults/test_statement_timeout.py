"""A statement timeout in the middle of a bulk import (a POST of many chunks): the API
answers 503 ``statement_timeout`` and nothing of the memory is left behind — no memory,
no chunk, no BM25 posting or corpus statistic, no entity."""

import pytest
from django.db import connection

from tests.faults.reconcile import reconcile
from tests.tiers.test_shortterm_api import base

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

WORDS = "ledger invoice rollback replica shard cursor tenant quota backlog canary".split()


def _chunks(count: int) -> list[dict]:
    return [
        {"content": f"Note {n}: " + " ".join(WORDS[(n + i) % len(WORDS)] for i in range(40))}
        for n in range(count)
    ]


def test_a_statement_timeout_mid_import_leaves_nothing_half_written(owner_client, worker, settings):
    settings.MEMORYHUB_GRAPH = {**settings.MEMORYHUB_GRAPH, "extraction_mode": "background"}
    small = owner_client.post(
        base(worker), {"title": "before", "content": "A note."}, format="json"
    )
    assert small.status_code == 201
    with connection.cursor() as cursor:
        before = reconcile(cursor, worker.pk, memories=1)
        # The import's connection (the test client runs on this one) gets a short timeout.
        cursor.execute("SET statement_timeout = '40ms'")
    try:
        answer = owner_client.post(
            base(worker), {"title": "bulk", "chunks": _chunks(3000)}, format="json"
        )
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET statement_timeout")
    assert answer.status_code == 503, answer.content[:500]
    assert answer.json()["error"] == "statement_timeout"
    assert answer.headers["Retry-After"]
    with connection.cursor() as cursor:
        after = reconcile(cursor, worker.pk, memories=1)
    assert after == before

    again = owner_client.post(
        base(worker), {"title": "bulk", "chunks": _chunks(300)}, format="json"
    )
    assert again.status_code == 201
    with connection.cursor() as cursor:
        assert reconcile(cursor, worker.pk, memories=2)["chunks"] == before["chunks"] + 300
