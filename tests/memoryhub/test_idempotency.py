"""Idempotency-Key on creating POSTs: the stored answer is the JSON the client read."""

import pytest

from tests.tiers.test_shortterm_api import base

pytestmark = pytest.mark.django_db

TEXT = (
    "The deploy of ledger-api to fra1 failed on Tuesday because the TLS certificate had "
    "expired. Thabo renewed the certificate."
)


def test_it_replays_an_answer_holding_dates(owner_client, worker):
    """A new memory's graph holds date-times: they are stored as the answer rendered them."""
    payload = {"title": "Deploy incident", "content": TEXT}
    first = owner_client.post(base(worker), payload, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = owner_client.post(base(worker), payload, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert first.json()["graph"]["entities"]
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
