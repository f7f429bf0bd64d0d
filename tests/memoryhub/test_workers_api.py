import pytest

from memoryhub.models import ApiToken, Worker
from memoryhub.services.workers import token_revoke
from tests.factories import WorkerFactory
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db


def test_an_agent_sees_only_its_own_worker(owner_client, worker, other_worker):
    body = owner_client.get("/api/v1/workers/").json()
    assert [w["name"] for w in body["results"]] == [worker.name]
    assert owner_client.get(f"/api/v1/workers/{worker.pk}/").json()["name"] == worker.name


def test_another_workers_id_is_404_not_403(owner_client, other_worker):
    assert_error(owner_client.get(f"/api/v1/workers/{other_worker.pk}/"), 404, "not_found")
    assert_error(
        owner_client.patch(f"/api/v1/workers/{other_worker.pk}/", {"description": "x"}), 404
    )


def test_a_missing_worker_looks_the_same_as_a_foreign_one(owner_client, other_worker):
    foreign = owner_client.get(f"/api/v1/workers/{other_worker.pk}/").json()
    missing = owner_client.get("/api/v1/workers/987654/").json()
    assert foreign["error"] == missing["error"] == "not_found"


def test_staff_see_every_worker(staff_client, worker, other_worker):
    names = {w["name"] for w in staff_client.get("/api/v1/workers/").json()["results"]}
    assert names == {worker.name, other_worker.name}


def test_staff_create_a_worker_and_issue_it_a_token(staff_client):
    created = staff_client.post(
        "/api/v1/workers/", {"name": "planner", "metadata": {"team": "ops"}}, format="json"
    )
    assert created.status_code == 201, created.content
    worker_id = created.json()["id"]
    issued = staff_client.post(
        f"/api/v1/workers/{worker_id}/tokens/", {"name": "laptop"}, format="json"
    )
    assert issued.status_code == 201
    key = issued.json()["key"]
    assert key.startswith("mh_")
    token = ApiToken.objects.get(pk=issued.json()["id"])
    assert token.worker_id == worker_id and token.digest != key  # only the digest is stored
    staff_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    me = staff_client.get("/api/v1/me").json()
    assert me["kind"] == "worker" and me["worker"]["id"] == worker_id


def test_agents_cannot_create_workers_or_tokens(owner_client, worker):
    assert_error(
        owner_client.post("/api/v1/workers/", {"name": "x"}, format="json"),
        403,
        "permission_denied",
    )
    assert_error(owner_client.post(f"/api/v1/workers/{worker.pk}/tokens/", {}, format="json"), 403)
    assert_error(owner_client.delete(f"/api/v1/workers/{worker.pk}/"), 403)
    assert Worker.objects.count() == 1


def test_an_agent_updates_its_own_description(owner_client, worker):
    response = owner_client.patch(
        f"/api/v1/workers/{worker.pk}/", {"description": "plans"}, format="json"
    )
    assert response.status_code == 200 and response.json()["description"] == "plans"


def test_a_duplicate_worker_name_is_409(staff_client, worker):
    assert_error(
        staff_client.post("/api/v1/workers/", {"name": worker.name}, format="json"),
        409,
        "duplicate",
        "name",
    )


def test_bad_worker_input_names_the_field(staff_client):
    assert_error(
        staff_client.post("/api/v1/workers/", {"name": 5}, format="json"),
        400,
        "validation_error",
        "name",
    )
    assert_error(
        staff_client.post("/api/v1/workers/", {"name": "x", "metadata": "no"}, format="json"),
        400,
        None,
        "metadata",
    )
    assert_error(
        staff_client.post("/api/v1/workers/", {"name": "   "}, format="json"), 400, None, "name"
    )
    assert not Worker.objects.exists()


def test_staff_delete_a_worker_and_its_memory(staff_client):
    worker = WorkerFactory()
    assert staff_client.delete(f"/api/v1/workers/{worker.pk}/").status_code == 204
    assert not Worker.objects.filter(pk=worker.pk).exists()


def test_a_revoked_token_is_401(owner_client, worker):
    token_revoke(token=worker.tokens.get())
    assert_error(owner_client.get("/api/v1/me"), 401, "authentication_failed")


def test_a_staff_token_stops_working_when_the_user_loses_staff(staff_client, staff_user):
    staff_user.is_staff = False
    staff_user.save()
    assert_error(staff_client.get("/api/v1/workers/"), 401, "authentication_failed")


def test_missing_and_malformed_authorization_is_401(anon_client):
    response = anon_client.get("/api/v1/me")
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
    anon_client.credentials(HTTP_AUTHORIZATION="Token")
    assert_error(anon_client.get("/api/v1/me"), 401, "authentication_failed")
    anon_client.credentials(HTTP_AUTHORIZATION="Token a b")
    assert_error(anon_client.get("/api/v1/me"), 401, "authentication_failed")


def test_bearer_works_too(worker):
    from rest_framework.test import APIClient

    from memoryhub.services.workers import token_issue

    _, key = token_issue(worker=worker)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert client.get("/api/v1/me").status_code == 200


def test_a_create_retried_with_its_idempotency_key_creates_one_worker(staff_client):
    for _ in range(3):
        response = staff_client.post(
            "/api/v1/workers/", {"name": "once"}, format="json", HTTP_IDEMPOTENCY_KEY="k1"
        )
        assert response.status_code == 201
    assert Worker.objects.filter(name="once").count() == 1


def test_unknown_api_paths_get_a_json_404(anon_client):
    response = anon_client.get("/api/v1/no-such-thing")
    assert_error(response, 404, "not_found")
