import pytest
from rest_framework.test import APIClient

from memoryhub.services.workers import token_issue
from tests.factories import StaffFactory, WorkerFactory

pytest_plugins = ["tests.browser"]  # the Playwright `page` fixture


@pytest.fixture(scope="session", autouse=True)
def _close_search_connections(django_db_setup):
    """Hybrid search reads BM25 on a second connection; close it before the test
    database is dropped."""
    yield
    from tiers.search.bm25 import search_connections_close

    search_connections_close()


def _client(key: str | None) -> APIClient:
    client = APIClient()
    if key:
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def staff_user(db):
    return StaffFactory(username="admin")


@pytest.fixture
def reviewer(db):
    """A person in the "Reviewers" group: may resolve conflicts in the browser."""
    from tests.factories import make_reviewer

    return make_reviewer("rita")


@pytest.fixture
def reviewer_client(reviewer):
    from django.test import Client

    client = Client()
    client.force_login(reviewer)
    return client


@pytest.fixture
def reader_client(db):
    """A logged-in person without the review permission (every review page read-only)."""
    from django.test import Client

    from tests.factories import UserFactory

    client = Client()
    client.force_login(UserFactory(username="rob"))
    return client


@pytest.fixture
def worker(db):
    return WorkerFactory(name="owner-agent")


@pytest.fixture
def other_worker(db):
    return WorkerFactory(name="other-agent")


@pytest.fixture
def owner_client(worker):
    """An agent with a token of ``worker``."""
    _, key = token_issue(worker=worker, name="owner")
    return _client(key)


@pytest.fixture
def other_client(other_worker):
    """An agent with a token of another worker."""
    _, key = token_issue(worker=other_worker, name="other")
    return _client(key)


@pytest.fixture
def staff_client(staff_user):
    _, key = token_issue(user=staff_user, name="staff")
    return _client(key)


@pytest.fixture
def anon_client():
    return _client(None)


@pytest.fixture
def llm(settings, httpserver):
    """A local fake OpenAI-compatible LLM endpoint (pytest-httpserver) configured as the LLM."""
    settings.MEMORYHUB_LLM = {
        "url": httpserver.url_for("/v1"),
        "model": "fake-llm",
        "api_key": "k",
        "timeout": 5,
    }
    return httpserver
