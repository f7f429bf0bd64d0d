from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django_q.models import Schedule
from rest_framework.test import APIClient

from memoryhub.models import ApiToken, Worker
from tests.factories import StaffFactory, UserFactory

pytestmark = pytest.mark.django_db


def run(*args, **env) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_ensure_admin_creates_one_admin_and_prints_its_password_once(monkeypatch):
    monkeypatch.delenv("MEMORYHUB_ADMIN_PASSWORD", raising=False)
    first = run("ensure_admin")
    assert "Created admin user 'admin' with password: " in first
    password = first.split("password: ")[1].split()[0]
    assert get_user_model().objects.get(username="admin").check_password(password)
    second = run("ensure_admin")
    assert "exists" in second and password not in second
    assert get_user_model().objects.filter(is_superuser=True).count() == 1


def test_ensure_admin_takes_the_password_from_the_environment(monkeypatch):
    monkeypatch.setenv("MEMORYHUB_ADMIN_PASSWORD", "from-env-pass-123")
    out = run("ensure_admin")
    assert "from-env-pass-123" not in out
    assert get_user_model().objects.get(username="admin").check_password("from-env-pass-123")


def test_issue_token_for_a_worker_gives_a_working_key():
    key = run("issue_token", "--worker", "planner", "--create", "--quiet").strip()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/v1/me").json()["worker"]["name"] == "planner"
    assert Worker.objects.filter(name="planner").count() == 1


def test_issue_token_refuses_an_unknown_worker_without_create():
    with pytest.raises(CommandError, match="no worker named 'ghost'"):
        run("issue_token", "--worker", "ghost")
    assert not ApiToken.objects.exists()


def test_issue_token_for_staff_only_for_staff_users():
    StaffFactory(username="boss")
    UserFactory(username="intern")
    assert "staff user 'boss'" in run("issue_token", "--staff", "boss")
    with pytest.raises(CommandError, match="not an active staff user"):
        run("issue_token", "--staff", "intern")


def test_ensure_schedules_is_idempotent():
    run("ensure_schedules")
    run("ensure_schedules")
    assert Schedule.objects.filter(name="purge idempotency records").count() == 1
