"""Writes are rate-limited per token; reads and other tokens are not affected."""

import pytest
from django.core.cache import cache

pytestmark = pytest.mark.django_db


@pytest.fixture
def limited(settings):
    settings.MEMORYHUB_API = {**settings.MEMORYHUB_API, "write_rate": "3/min"}
    cache.clear()
    yield
    cache.clear()


def test_writes_beyond_the_rate_are_429_with_retry_after(
    limited, worker, owner_client, other_client
):
    url = f"/api/v1/workers/{worker.pk}/shortterm/"
    for i in range(3):
        response = owner_client.post(url, {"title": f"m{i}", "content": "x"}, format="json")
        assert response.status_code == 201
    refused = owner_client.post(url, {"title": "m4", "content": "x"}, format="json")
    assert refused.status_code == 429
    assert refused.json()["error"] == "throttled" and int(refused["Retry-After"]) > 0
    # reads go on, and the limit is per token
    assert owner_client.get(url).status_code == 200
    assert (
        other_client.post(
            f"/api/v1/workers/{worker.pk}/shortterm/", {"title": "t", "content": "x"}, format="json"
        ).status_code
        == 404
    )  # its own limit is untouched: it simply cannot reach this worker


def test_an_empty_rate_switches_the_limit_off(settings, worker, owner_client):
    settings.MEMORYHUB_API = {**settings.MEMORYHUB_API, "write_rate": ""}
    url = f"/api/v1/workers/{worker.pk}/shortterm/"
    for i in range(5):
        assert (
            owner_client.post(url, {"title": f"m{i}", "content": "x"}, format="json").status_code
            == 201
        )
