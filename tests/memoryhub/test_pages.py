"""Home page and admin pages, through Django's test client (the browser test is separate)."""

import pytest
from django.urls import reverse

from memoryhub.models import Worker
from memoryhub.services.workers import token_issue
from tests.factories import ActiveMemoryFactory, UserFactory, WorkerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_browser(client, staff_user):
    client.force_login(staff_user)
    return client


def test_the_home_page_needs_a_login(client):
    response = client.get("/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_home_page_counts_per_tier_and_worker(staff_browser):
    planner, coder = WorkerFactory(name="planner"), WorkerFactory(name="coder")
    ActiveMemoryFactory.create_batch(3, worker=planner)
    ActiveMemoryFactory(worker=coder)
    page = staff_browser.get("/").content.decode()
    assert 'data-tier="active">4<' in page
    assert 'data-worker="planner"' in page and 'data-worker="coder"' in page
    assert reverse("swagger-ui") in page and reverse("admin:index") in page
    assert "/static/django_htmx/htmx" in page  # htmx served locally


def test_the_health_panel_is_a_fragment_for_htmx(staff_browser):
    response = staff_browser.get(reverse("health-panel"), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<div id="health"')
    assert "pgvector" in html and "<html" not in html
    # the tests switch reading sections on write off, and the panel says so
    assert "Sections read on write" in html and "switched off" in html


def test_a_non_staff_user_sees_the_overview_without_admin_links(client):
    client.force_login(UserFactory())
    page = client.get("/").content.decode()
    assert "Overview" in page and reverse("admin:index") not in page


@pytest.mark.parametrize(
    "url_name",
    [
        "admin:index",
        "admin:memoryhub_worker_changelist",
        "admin:memoryhub_worker_add",
        "admin:memoryhub_apitoken_changelist",
        "admin:memoryhub_idempotencyrecord_changelist",
        "admin:tiers_activememory_changelist",
        "admin:tiers_shorttermmemory_changelist",
        "admin:graph_entity_changelist",
        "admin:graph_relationship_changelist",
        "admin:review_mergeconflict_changelist",
        "admin:consolidation_consolidationrun_changelist",
    ],
)
def test_admin_pages_load(staff_browser, url_name):
    from tiers.services.shortterm import shortterm_memory_create

    ActiveMemoryFactory()
    shortterm_memory_create(
        worker=WorkerFactory(), title="t", chunks=[{"content": "Alice Chen uses Redis."}]
    )
    assert staff_browser.get(reverse(url_name)).status_code == 200


def test_admin_active_memory_page_shows_sections_readably(staff_browser):
    memory = ActiveMemoryFactory(title="Readable")
    page = staff_browser.get(
        reverse("admin:tiers_activememory_change", args=[memory.pk])
    ).content.decode()
    assert "Ship the memory service" in page and "Objective" in page and "updated 0 times" in page
    listing = staff_browser.get(
        reverse("admin:tiers_activememory_changelist"), {"q": "Readable"}
    ).content.decode()
    assert "Readable" in listing
    filtered = staff_browser.get(
        reverse("admin:tiers_activememory_changelist"), {"worker__id__exact": memory.worker_id}
    )
    assert filtered.status_code == 200 and "Readable" in filtered.content.decode()


def test_admin_worker_and_token_pages_load(staff_browser):
    worker = WorkerFactory()
    token, _ = token_issue(worker=worker)
    assert (
        staff_browser.get(reverse("admin:memoryhub_worker_change", args=[worker.pk])).status_code
        == 200
    )
    assert (
        staff_browser.get(reverse("admin:memoryhub_apitoken_change", args=[token.pk])).status_code
        == 200
    )


def test_the_admin_action_issues_a_token_and_shows_it_once(staff_browser):
    worker = WorkerFactory(name="admin-made")
    response = staff_browser.post(
        reverse("admin:memoryhub_worker_changelist"),
        {"action": "issue_token", "_selected_action": [worker.pk]},
        follow=True,
    )
    page = response.content.decode()
    assert "Token for <strong>admin-made</strong>" in page
    key = page.split("<code>")[1].split("</code>")[0]
    assert Worker.objects.get(pk=worker.pk).tokens.get().digest != key
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/me").json()["worker"]["name"] == "admin-made"


def test_the_admin_action_revokes_tokens(staff_browser, worker):
    token, _ = token_issue(worker=worker)
    staff_browser.post(
        reverse("admin:memoryhub_apitoken_changelist"),
        {"action": "revoke", "_selected_action": [token.pk]},
    )
    token.refresh_from_db()
    assert token.revoked_at is not None


def test_the_home_page_counts_the_shortterm_tier(staff_browser):
    from tiers.services.shortterm import shortterm_memory_create

    worker = WorkerFactory(name="searcher")
    shortterm_memory_create(
        worker=worker, title="a", chunks=[{"content": "Alice Chen uses Redis."}, {"content": "two"}]
    )
    page = staff_browser.get("/").content.decode()
    assert 'data-tier="shortterm">1<' in page and "2 chunks, 2 entities, 1 relationships" in page


def test_admin_shortterm_pages_show_chunks_without_vectors(staff_browser):
    from tiers.models import Bm25Corpus
    from tiers.services.shortterm import shortterm_memory_create

    memory = shortterm_memory_create(
        worker=WorkerFactory(),
        title="Runbook",
        chunks=[{"content": "Restart the gateway with care."}],
    )
    listing = staff_browser.get(
        reverse("admin:tiers_shorttermmemory_changelist"), {"q": "gateway"}
    ).content.decode()
    assert "Runbook" in listing
    page = staff_browser.get(
        reverse("admin:tiers_shorttermmemory_change", args=[memory.pk])
    ).content.decode()
    assert "Restart the gateway with care." in page and "embedding" not in page.lower()
    staff_browser.post(
        reverse("admin:tiers_shorttermmemory_delete", args=[memory.pk]), {"post": "yes"}
    )
    assert Bm25Corpus.objects.get(worker=memory.worker).doc_count == 0


def test_admin_migration_run_page_shows_each_section_and_links(staff_browser):
    from consolidation.services.active_to_shortterm import migrate_active_memory
    from tests.factories import TASK_TEMPLATE
    from tiers.services.active import active_memory_create, active_memory_update_sections

    worker = WorkerFactory()
    memory = active_memory_create(
        worker=worker,
        title="Sprint",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "Ship it"},
    )
    memory = active_memory_update_sections(
        memory=memory, sections={"notes": "Kubernetes upgrades happen monthly."}
    )
    run = migrate_active_memory(memory=memory, trigger="api")
    created = next(o for o in run.outcomes if o["section_id"] == "notes")["ids"][
        "shortterm_memory_id"
    ]
    page = staff_browser.get(
        reverse("admin:consolidation_consolidationrun_change", args=[run.pk])
    ).content.decode()
    assert "<code>notes</code>" in page and "created" in page and "skipped" in page
    assert reverse("admin:tiers_shorttermmemory_change", args=[created]) in page
    assert reverse("admin:tiers_activememory_change", args=[memory.pk]) in page
