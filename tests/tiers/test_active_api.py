import pytest

from tests.factories import TASK_TEMPLATE, ActiveMemoryFactory
from tests.helpers import assert_error
from tiers.models import ActiveMemory

pytestmark = pytest.mark.django_db


def base(worker) -> str:
    return f"/api/v1/workers/{worker.pk}/active/"


def create_payload(**overrides):
    return {
        "title": "Build auth",
        "description": "JWT for the gateway",
        "template_content": TASK_TEMPLATE,
        "initial_sections": {"objective": "Add JWT auth"},
        "metadata": {"ticket": "AUTH-1", "nested": {"ids": [1, 2]}},
    } | overrides


# --- the happy paths -----------------------------------------------------------------


def test_it_creates_from_a_template(owner_client, worker):
    response = owner_client.post(base(worker), create_payload(), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["template"] == {"id": "task_memory", "name": "Task memory", "version": "1.0"}
    assert body["sections"]["objective"] == {"content": "Add JWT auth", "update_count": 0}
    assert body["sections"]["progress"] == {"content": "", "update_count": 0}
    assert body["metadata"] == {"ticket": "AUTH-1", "nested": {"ids": [1, 2]}}
    assert ActiveMemory.objects.get(pk=body["id"]).worker == worker


def test_it_lists_summaries(owner_client, worker, other_worker):
    ActiveMemoryFactory(worker=worker, title="alpha")
    ActiveMemoryFactory(worker=worker, title="beta")
    ActiveMemoryFactory(worker=other_worker, title="hidden")
    response = owner_client.get(base(worker))
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    titles = {row["title"] for row in body["results"]}
    assert titles == {"alpha", "beta"}
    row = body["results"][0]
    assert "template_content" not in row
    assert [s["id"] for s in row["sections"]] == ["objective", "progress", "notes"]
    assert row["sections"][0] == {
        "id": "objective",
        "name": "Objective",
        "update_count": 0,
        "chars": 23,
    }


def test_it_filters_the_list_by_text(owner_client, worker):
    ActiveMemoryFactory(worker=worker, title="deploy pipeline")
    ActiveMemoryFactory(worker=worker, title="budget review")
    body = owner_client.get(base(worker), {"q": "BUDGET"}).json()
    assert [row["title"] for row in body["results"]] == ["budget review"]


def test_it_gets_one(owner_client, worker):
    memory = ActiveMemoryFactory(worker=worker)
    body = owner_client.get(f"{base(worker)}{memory.pk}/").json()
    assert body["id"] == memory.pk and body["template_content"] == TASK_TEMPLATE


def test_it_gets_several_in_the_order_asked(owner_client, worker):
    first, second = ActiveMemoryFactory(worker=worker), ActiveMemoryFactory(worker=worker)
    response = owner_client.post(
        f"{base(worker)}detailed", {"ids": [second.pk, first.pk]}, format="json"
    )
    assert response.status_code == 200
    assert [m["id"] for m in response.json()] == [second.pk, first.pk]


def test_getting_several_with_an_unknown_id_is_404_naming_it(owner_client, worker, other_worker):
    mine, theirs = ActiveMemoryFactory(worker=worker), ActiveMemoryFactory(worker=other_worker)
    response = owner_client.post(
        f"{base(worker)}detailed", {"ids": [mine.pk, theirs.pk]}, format="json"
    )
    body = assert_error(response, 404, "not_found", "ids")
    assert str(theirs.pk) in body["detail"]


def test_it_updates_one_section_by_name(owner_client, worker):
    memory = ActiveMemoryFactory(worker=worker)
    url = f"{base(worker)}{memory.pk}/sections/Progress"
    owner_client.put(url, {"content": "step 1"}, format="json")
    response = owner_client.put(url, {"content": "step 2"}, format="json")
    assert response.status_code == 200
    assert response.json()["sections"]["progress"] == {"content": "step 2", "update_count": 2}


def test_it_updates_several_sections(owner_client, worker):
    memory = ActiveMemoryFactory(worker=worker)
    response = owner_client.patch(
        f"{base(worker)}{memory.pk}/sections",
        {"sections": {"progress": "p", "notes": "n"}},
        format="json",
    )
    assert response.status_code == 200
    sections = response.json()["sections"]
    assert sections["progress"]["update_count"] == sections["notes"]["update_count"] == 1


def test_it_updates_the_memory(owner_client, worker):
    memory = ActiveMemoryFactory(worker=worker)
    response = owner_client.patch(
        f"{base(worker)}{memory.pk}/",
        {
            "title": "Renamed",
            "description": "new",
            "metadata": {"a": 1},
            "sections": {"notes": "x"},
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["title"], body["description"], body["metadata"]) == ("Renamed", "new", {"a": 1})
    assert body["sections"]["notes"] == {"content": "x", "update_count": 1}


def test_it_deletes(owner_client, worker):
    memory = ActiveMemoryFactory(worker=worker)
    assert owner_client.delete(f"{base(worker)}{memory.pk}/").status_code == 204
    assert not ActiveMemory.objects.filter(pk=memory.pk).exists()


def test_a_staff_token_reaches_any_worker(staff_client, worker):
    memory = ActiveMemoryFactory(worker=worker)
    assert staff_client.get(f"{base(worker)}{memory.pk}/").status_code == 200
    assert staff_client.post(base(worker), create_payload(), format="json").status_code == 201


# --- isolation: owner / other agent / anonymous ----------------------------------------


def _endpoints(worker, memory):
    detail = f"{base(worker)}{memory.pk}/"
    return [
        ("get", base(worker), None),
        ("post", base(worker), create_payload()),
        ("post", f"{base(worker)}detailed", {"ids": [memory.pk]}),
        ("get", detail, None),
        ("patch", detail, {"title": "x"}),
        ("delete", detail, None),
        ("patch", f"{detail}sections", {"sections": {"notes": "x"}}),
        ("put", f"{detail}sections/notes", {"content": "x"}),
    ]


def test_another_workers_token_gets_404_everywhere_and_changes_nothing(other_client, worker):
    memory = ActiveMemoryFactory(worker=worker)
    before = ActiveMemory.objects.values().get(pk=memory.pk)
    for method, url, data in _endpoints(worker, memory):
        response = getattr(other_client, method)(url, data, format="json")
        assert_error(response, 404, "not_found")
    assert ActiveMemory.objects.values().get(pk=memory.pk) == before
    assert ActiveMemory.objects.count() == 1


def test_another_workers_token_cannot_reach_a_memory_through_its_own_worker(
    other_client, other_worker, worker
):
    memory = ActiveMemoryFactory(worker=worker)
    response = other_client.get(f"{base(other_worker)}{memory.pk}/")
    assert_error(response, 404, "not_found")


def test_anonymous_and_bad_tokens_get_401_everywhere(anon_client, worker):
    memory = ActiveMemoryFactory(worker=worker)
    for method, url, data in _endpoints(worker, memory):
        assert_error(
            getattr(anon_client, method)(url, data, format="json"), 401, "not_authenticated"
        )
    anon_client.credentials(HTTP_AUTHORIZATION="Token mh_not-a-real-token")
    for method, url, data in _endpoints(worker, memory):
        assert_error(
            getattr(anon_client, method)(url, data, format="json"), 401, "authentication_failed"
        )
    assert ActiveMemory.objects.count() == 1


# --- bad input: a clear 4xx naming the field, nothing written ---------------------------


@pytest.mark.parametrize(
    ("overrides", "status", "code", "field"),
    [
        ({"template_content": "template: [oops"}, 400, "invalid_template", "template_content"),
        (
            {"template_content": "template: {id: t, name: T, version: '1'}\n"},
            400,
            "invalid_template",
            "template_content",
        ),
        (
            {
                "template_content": "template: {id: t, name: T, version: '1'}\nsections:\n"
                "  - {id: a, name: A}\n  - {id: a, name: B}\n"
            },
            400,
            "invalid_template",
            "template_content",
        ),
        (
            {"initial_sections": {"objective": "x", "budget": "y"}},
            400,
            "unknown_section",
            "initial_sections.budget",
        ),
        (
            {"initial_sections": {"notes": "x"}},
            400,
            "missing_required_section",
            "initial_sections.objective",
        ),
        ({"initial_sections": {"objective": 42}}, 400, "invalid", "initial_sections.objective"),
        ({"initial_sections": {"objective": ["a"]}}, 400, "invalid", "initial_sections.objective"),
        ({"initial_sections": "objective"}, 400, "validation_error", "initial_sections"),
        ({"title": 12}, 400, "validation_error", "title"),
        ({"title": ""}, 400, "validation_error", "title"),
        ({"template_content": None}, 400, "validation_error", "template_content"),
        ({"metadata": [1, 2]}, 400, "validation_error", "metadata"),
    ],
)
def test_create_refuses_bad_input(owner_client, worker, overrides, status, code, field):
    response = owner_client.post(base(worker), create_payload(**overrides), format="json")
    assert_error(response, status, code, field)
    assert not ActiveMemory.objects.exists()


def test_create_refuses_a_section_over_a_megabyte(owner_client, worker):
    big = "x" * 1_000_001
    response = owner_client.post(
        base(worker), create_payload(initial_sections={"objective": big}), format="json"
    )
    body = assert_error(response, 413, "payload_too_large", "initial_sections.objective")
    assert "1000000 bytes" in body["detail"]
    assert not ActiveMemory.objects.exists()


def test_the_section_limit_is_configurable(owner_client, worker, settings):
    settings.MEMORYHUB_ACTIVE = {**settings.MEMORYHUB_ACTIVE, "max_section_bytes": 5}
    memory = ActiveMemoryFactory(worker=worker)
    response = owner_client.put(
        f"{base(worker)}{memory.pk}/sections/notes", {"content": "123456"}, format="json"
    )
    assert_error(response, 413, "payload_too_large", "sections.notes")


def test_an_oversized_request_body_is_413(owner_client, worker, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    response = owner_client.post(
        base(worker), create_payload(description="d" * 4096), format="json"
    )
    assert_error(response, 413, "payload_too_large")


def test_malformed_json_is_400(owner_client, worker):
    response = owner_client.generic(
        "POST", base(worker), "{not json", content_type="application/json"
    )
    assert_error(response, 400, "parse_error")


def test_updating_an_unknown_section_is_400_and_changes_nothing(owner_client, worker):
    memory = ActiveMemoryFactory(worker=worker)
    response = owner_client.patch(
        f"{base(worker)}{memory.pk}/sections",
        {"sections": {"notes": "ok", "budget": "?"}},
        format="json",
    )
    assert_error(response, 400, "unknown_section", "sections.budget")
    memory.refresh_from_db()
    assert memory.sections["notes"] == {"content": "", "update_count": 0}


def test_updating_a_section_with_non_string_content_is_400(owner_client, worker):
    memory = ActiveMemoryFactory(worker=worker)
    response = owner_client.put(
        f"{base(worker)}{memory.pk}/sections/notes", {"content": {"a": 1}}, format="json"
    )
    assert_error(response, 400, "invalid", "sections.notes")


def test_an_empty_update_is_400(owner_client, worker):
    memory = ActiveMemoryFactory(worker=worker)
    assert_error(
        owner_client.patch(f"{base(worker)}{memory.pk}/", {}, format="json"),
        400,
        "validation_error",
    )


def test_an_unknown_memory_is_404(owner_client, worker):
    assert_error(owner_client.get(f"{base(worker)}999999/"), 404, "not_found")


# --- Idempotency-Key --------------------------------------------------------------------


def test_a_retried_create_with_the_same_key_creates_once(owner_client, worker):
    first = owner_client.post(
        base(worker), create_payload(), format="json", HTTP_IDEMPOTENCY_KEY="abc-1"
    )
    again = owner_client.post(
        base(worker), create_payload(), format="json", HTTP_IDEMPOTENCY_KEY="abc-1"
    )
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert ActiveMemory.objects.count() == 1


def test_a_key_reused_for_another_request_is_422(owner_client, worker):
    owner_client.post(base(worker), create_payload(), format="json", HTTP_IDEMPOTENCY_KEY="abc-2")
    response = owner_client.post(
        base(worker), create_payload(title="other"), format="json", HTTP_IDEMPOTENCY_KEY="abc-2"
    )
    assert_error(response, 422, "idempotency_key_reused", "Idempotency-Key")
    assert ActiveMemory.objects.count() == 1


def test_a_failed_create_is_not_remembered(owner_client, worker):
    bad = owner_client.post(
        base(worker),
        create_payload(initial_sections={}),
        format="json",
        HTTP_IDEMPOTENCY_KEY="abc-3",
    )
    assert bad.status_code == 400
    good = owner_client.post(
        base(worker), create_payload(), format="json", HTTP_IDEMPOTENCY_KEY="abc-4"
    )
    assert good.status_code == 201


def test_keys_are_per_token(owner_client, staff_client, worker):
    owner_client.post(base(worker), create_payload(), format="json", HTTP_IDEMPOTENCY_KEY="shared")
    staff_client.post(base(worker), create_payload(), format="json", HTTP_IDEMPOTENCY_KEY="shared")
    assert ActiveMemory.objects.count() == 2
