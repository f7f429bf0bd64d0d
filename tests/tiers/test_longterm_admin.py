"""The admin's read-only pages of the longterm tier and of promotion: longterm versions
(filtered current / ended, by worker and type, searched by content), usage summaries,
usage events, promotion scores."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from consolidation.models import PromotionState
from consolidation.services.shortterm_to_longterm import promotion_check
from tiers.models import LongtermChunk, MemoryEvent, MemoryUsage
from tiers.services.shortterm import shortterm_chunks_update, shortterm_memory_create
from tiers.services.usage import usage_record

pytestmark = pytest.mark.django_db

OLD = "The ledger service runs on PostgreSQL 14."
NEW = "The ledger service runs on PostgreSQL 16."


@pytest.fixture
def promoted(worker):
    """A memory promoted, changed and promoted again: one ended version, one current."""
    memory = shortterm_memory_create(worker=worker, title="Ledger", content=OLD)
    first = timezone.now() - timedelta(days=1)
    usage_record(worker=worker, memory_id=memory.pk, kind="mark_important", at=first)
    promotion_check(memory=memory, now=first)
    chunk = memory.chunks.get()
    shortterm_chunks_update(memory=memory, updates=[{"chunk_id": chunk.pk, "new_content": NEW}])
    promotion_check(memory=memory)
    return memory


def _changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def test_it_lists_every_model_read_only(admin_client, promoted):
    for model in (LongtermChunk, MemoryUsage, MemoryEvent, PromotionState):
        response = admin_client.get(_changelist(model))
        assert response.status_code == 200, model
        row = model.objects.first()
        info = (model._meta.app_label, model._meta.model_name)
        add = reverse("admin:{}_{}_add".format(*info))
        assert add not in response.content.decode(), model  # no "Add" button
        change = reverse("admin:{}_{}_change".format(*info), args=[row.pk])
        page = admin_client.get(change)
        assert page.status_code == 200, model
        assert 'name="_save"' not in page.content.decode(), model  # view only
        assert admin_client.get(add).status_code == 403, model
        assert admin_client.post(change, {}).status_code == 403, model
        delete = reverse("admin:{}_{}_delete".format(*info), args=[row.pk])
        assert admin_client.post(delete, {"post": "yes"}).status_code == 403, model
    assert LongtermChunk.objects.count() == 2


def test_longterm_versions_filter_by_current_or_ended_and_search_content(admin_client, promoted):
    url = _changelist(LongtermChunk)
    current = admin_client.get(url, {"current": "yes"}).content.decode()
    ended = admin_client.get(url, {"current": "no"}).content.decode()
    assert "1 longterm chunk" in current and "1 longterm chunk" in ended
    old, new = LongtermChunk.objects.get(content=OLD), LongtermChunk.objects.get(content=NEW)
    assert f"/{new.pk}/change/" in current and f"/{old.pk}/change/" not in current
    assert f"/{old.pk}/change/" in ended and f"/{new.pk}/change/" not in ended
    found = admin_client.get(url, {"q": "PostgreSQL 14"}).content.decode()
    assert f"/{old.pk}/change/" in found and f"/{new.pk}/change/" not in found
    by_type = admin_client.get(url, {"memory_type": new.memory_type}).content.decode()
    assert "2 longterm chunks" in by_type
    worker = admin_client.get(url, {"worker__id__exact": promoted.worker_id}).content.decode()
    assert "2 longterm chunks" in worker


def test_promotion_states_filter_by_decider(admin_client, promoted):
    url = _changelist(PromotionState)
    html = admin_client.get(url, {"decided_by": "trigger_important"}).content.decode()
    assert "1 promotion state" in html
    html = admin_client.get(url, {"decided_by": "fallback"}).content.decode()
    assert "0 promotion states" in html
