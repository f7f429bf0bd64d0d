"""The audit log: reviewers' decisions and their undoing, admin changes, workers and tokens
through the API, manual promotions, imports and exports."""

import io

import pytest
from django.core.management import call_command
from django.test import Client

from memoryhub.models import AuditEvent
from review.models import ConflictResolution
from review.services.conflicts import conflict_resolve, conflict_undo
from tests.factories import make_conflict
from tiers.services.shortterm import shortterm_memory_create

pytestmark = pytest.mark.django_db


def test_a_decision_and_its_undoing_are_audited(worker, reviewer):
    conflict = make_conflict(worker)
    conflict_resolve(conflict=conflict, decision="keep_existing", user=reviewer, note="checked")
    resolution = ConflictResolution.objects.get(conflict=conflict)
    conflict_undo(resolution=resolution, user=reviewer)
    events = list(AuditEvent.objects.order_by("id").values_list("actor", "action", "target"))
    assert events == [
        ("user:rita", "conflict.resolve", f"conflict:{conflict.pk}"),
        ("user:rita", "conflict.undo", f"conflict:{conflict.pk}"),
    ]
    assert AuditEvent.objects.get(action="conflict.resolve").detail["note"] == "checked"


def test_admin_changes_are_audited(worker, staff_user):
    client = Client()
    client.force_login(staff_user)
    response = client.post(
        f"/admin/memoryhub/worker/{worker.pk}/change/",
        {
            "name": "renamed-agent",
            "description": "",
            "metadata": "{}",
            "tokens-TOTAL_FORMS": "0",
            "tokens-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    event = AuditEvent.objects.get(action="admin.change")
    assert event.actor == "user:admin" and event.target == f"memoryhub.worker:{worker.pk}"


def test_api_changes_by_staff_are_audited_and_listed_for_staff_only(
    staff_client, owner_client, worker
):
    created = staff_client.post("/api/v1/workers/", {"name": "new-agent"}, format="json")
    assert created.status_code == 201
    staff_client.post(f"/api/v1/workers/{worker.pk}/tokens/", {"name": "ci"}, format="json")
    memory = shortterm_memory_create(worker=worker, title="x", content="The key rotates.")
    owner_client.post(f"/api/v1/workers/{worker.pk}/shortterm/{memory.pk}/promotion")
    log = staff_client.get("/api/v1/audit").json()["results"]
    actions = [row["action"] for row in log]
    assert actions[:3] == ["promotion.request", "token.issue", "worker.create"]
    assert log[1]["actor"].startswith("token:") and "(user:admin)" in log[1]["actor"]
    assert owner_client.get("/api/v1/audit").status_code == 403
    only = staff_client.get("/api/v1/audit", {"action": "token.issue"}).json()["results"]
    assert [row["action"] for row in only] == ["token.issue"]


def test_exports_and_imports_are_audited(worker, tmp_path):
    shortterm_memory_create(worker=worker, title="x", content="A note.")
    path = tmp_path / "w.jsonl"
    call_command("export_worker", "--worker", worker.name, "--out", str(path), stderr=io.StringIO())
    call_command(
        "import_worker",
        "--in",
        str(path),
        "--name",
        "copy",
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    assert set(AuditEvent.objects.values_list("action", flat=True)) == {
        "worker.export",
        "worker.import",
    }
