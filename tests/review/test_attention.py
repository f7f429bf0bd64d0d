"""The home page says what needs a person's attention (review.selectors.attention,
memoryhub.selectors.overview.attention)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django_q.models import Failure

from review.services.conflicts import conflict_create
from tests.factories import TASK_TEMPLATE, StaffFactory, UserFactory
from tiers.services.active import active_memory_create, active_memory_update_sections
from tiers.services.shortterm import shortterm_memory_create

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _conflict(worker):
    memory = shortterm_memory_create(
        worker=worker, title="Budget", chunks=[{"content": "The budget is $50,000."}]
    )
    chunk = memory.chunks.get()
    return conflict_create(
        worker=worker,
        active_memory=None,
        section_id="notes",
        section_name="Notes",
        section_content="The budget is $65,000.",
        conflicting_chunks=[{"chunk_id": chunk.pk, "content": chunk.content, "similarity": 0.9}],
        reasons=[{"code": "number_changed", "detail": "$50,000 → $65,000"}],
    )


def test_nothing_to_do_is_said_plainly(worker):
    page = _client(UserFactory()).get("/").content.decode()
    assert "Nothing needs you now" in page


def test_pending_conflicts_failed_jobs_and_full_workers_are_listed_with_links(
    settings, worker, other_worker
):
    settings.MEMORYHUB_MIGRATION = settings.MEMORYHUB_MIGRATION | {
        "min_update_count": 1,
        "capacity_updates": 4,
        "capacity_memories": 0,
    }
    _conflict(worker)
    _conflict(other_worker)
    memory = active_memory_create(
        worker=worker,
        title="Sprint",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "x"},
    )
    for n in range(4):  # 4 of 4 pending updates: a sweep is due
        active_memory_update_sections(memory=memory, sections={"notes": f"note {n}"})
    Failure.objects.create(
        name="sweep",
        func="consolidation.tasks.sweep_migrations",
        started=timezone.now() - timedelta(hours=1),  # within the last 24 h, whatever the day
        stopped=timezone.now() - timedelta(hours=1) + timedelta(seconds=1),
        success=False,
        result="boom",
    )
    staff_page = _client(StaffFactory()).get("/").content.decode()
    assert "2 conflicts waiting for review" in staff_page and 'href="/review/"' in staff_page
    assert (
        f"{worker.name}: active memory" in staff_page
        and "of its consolidation capacity" in staff_page
    )
    assert f'href="/browse/{worker.pk}/"' in staff_page
    assert "1 background job failed in the last 24 h" in staff_page
    assert 'href="/admin/django_q/failure/"' in staff_page
    # Someone who is not staff sees the same items without the staff-only links.
    page = _client(UserFactory()).get("/").content.decode()
    assert "2 conflicts waiting for review" in page and f'href="/browse/{worker.pk}/"' not in page
    assert 'href="/admin/django_q/failure/"' not in page
