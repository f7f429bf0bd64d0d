import pytest

from review.models import MergeConflict
from review.services.conflicts import conflict_resolve
from tests.factories import make_conflict
from tests.helpers import assert_error
from tiers.models import ShorttermChunk, ShorttermMemory

pytestmark = pytest.mark.django_db

EXISTING = "The Q3 budget for the marketing team is $50,000."
INCOMING = "The Q3 budget for the marketing team is $65,000."


@pytest.fixture
def conflict(worker):
    return make_conflict(worker, existing=EXISTING, incoming=INCOMING)


def url(worker, conflict, tail=""):
    return f"/api/v1/workers/{worker.pk}/conflicts/{conflict.pk}/{tail}"


def _chunk(conflict):
    return ShorttermChunk.objects.get(pk=conflict.conflicting_chunks[0]["chunk_id"])


def test_accept_incoming_replaces_the_chunk_and_records_before_and_after(
    owner_client, worker, conflict
):
    response = owner_client.post(
        url(worker, conflict, "resolve"), {"decision": "accept_incoming"}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "resolved"
    assert (
        body["resolution"]["before"]["content"] == EXISTING
        and body["resolution"]["after"]["content"] == INCOMING
    )
    assert _chunk(conflict).content == INCOMING
    conflict.active_memory.refresh_from_db()
    assert conflict.active_memory.sections["notes"]["update_count"] == 0  # handled


def test_merge_with_edited_text(owner_client, worker, conflict):
    edited = "The Q3 budget for the marketing team rose from $50,000 to $65,000 in August."
    response = owner_client.post(
        url(worker, conflict, "resolve"),
        {"decision": "merge_edited", "edited_text": edited},
        format="json",
    )
    assert response.status_code == 200
    assert _chunk(conflict).content == edited


def test_keep_existing_changes_nothing_in_the_shortterm_tier(owner_client, worker, conflict):
    owner_client.post(
        url(worker, conflict, "resolve"),
        {"decision": "keep_existing", "note": "old figure is right"},
        format="json",
    )
    assert _chunk(conflict).content == EXISTING
    conflict.refresh_from_db()
    assert conflict.status == "resolved" and conflict.resolution.note == "old figure is right"


def test_separate_memory_stores_the_section_on_its_own(owner_client, worker, conflict):
    body = owner_client.post(
        url(worker, conflict, "resolve"), {"decision": "separate_memory"}, format="json"
    ).json()
    memory = ShorttermMemory.objects.get(pk=body["resolution"]["after"]["shortterm_memory_id"])
    assert memory.title == "Q3 planning — Notes" and memory.chunks.get().content == INCOMING
    assert _chunk(conflict).content == EXISTING


def test_dismiss_keeps_the_section_count(owner_client, worker, conflict):
    owner_client.post(url(worker, conflict, "resolve"), {"decision": "dismiss"}, format="json")
    conflict.refresh_from_db()
    conflict.active_memory.refresh_from_db()
    assert (
        conflict.status == "dismissed"
        and conflict.active_memory.sections["notes"]["update_count"] == 1
    )


def test_a_resolved_conflict_cannot_be_resolved_again(owner_client, worker, conflict):
    owner_client.post(
        url(worker, conflict, "resolve"), {"decision": "keep_existing"}, format="json"
    )
    body = assert_error(
        owner_client.post(
            url(worker, conflict, "resolve"), {"decision": "accept_incoming"}, format="json"
        ),
        409,
        "already_resolved",
    )
    assert "already resolved" in body["detail"]
    assert _chunk(conflict).content == EXISTING


def test_bad_resolutions_are_refused_and_change_nothing(owner_client, worker, conflict):
    assert_error(
        owner_client.post(
            url(worker, conflict, "resolve"), {"decision": "merge_edited"}, format="json"
        ),
        400,
        None,
        "edited_text",
    )
    assert_error(
        owner_client.post(
            url(worker, conflict, "resolve"), {"decision": "flip_a_coin"}, format="json"
        ),
        400,
        None,
        "decision",
    )
    _chunk(conflict).delete()
    assert_error(
        owner_client.post(
            url(worker, conflict, "resolve"), {"decision": "accept_incoming"}, format="json"
        ),
        409,
        "chunk_gone",
    )
    conflict.refresh_from_db()
    assert conflict.status == "pending" and not hasattr(conflict, "resolution")


def test_a_failure_midway_rolls_the_whole_resolution_back(worker, conflict, monkeypatch):
    from consolidation.services import decisions as conflicts

    def explode(*args, **kwargs):
        raise RuntimeError("crash after the chunk update")

    monkeypatch.setattr(conflicts, "_reset_section_count", explode)
    with pytest.raises(RuntimeError):
        conflict_resolve(conflict=conflict, decision="accept_incoming")
    conflict.refresh_from_db()
    assert conflict.status == "pending" and _chunk(conflict).content == EXISTING


def test_the_queue_lists_and_filters(owner_client, worker, conflict):
    listing = owner_client.get(
        f"/api/v1/workers/{worker.pk}/conflicts/", {"status": "pending"}
    ).json()
    assert [c["id"] for c in listing["results"]] == [conflict.pk]
    assert listing["results"][0]["reasons"][0]["code"] == "number_changed"
    assert_error(
        owner_client.get(f"/api/v1/workers/{worker.pk}/conflicts/", {"status": "weird"}),
        400,
        None,
        "status",
    )


def test_conflicts_are_isolated(other_client, anon_client, worker, conflict):
    for method, target, data in (
        ("get", url(worker, conflict), None),
        ("post", url(worker, conflict, "resolve"), {"decision": "dismiss"}),
        ("get", f"/api/v1/workers/{worker.pk}/conflicts/", None),
    ):
        assert_error(getattr(other_client, method)(target, data, format="json"), 404, "not_found")
        assert_error(getattr(anon_client, method)(target, data, format="json"), 401)
    assert MergeConflict.objects.get(pk=conflict.pk).status == "pending"


def test_the_api_shows_an_undone_decision_beside_the_one_in_force(owner_client, worker, conflict):
    from review.services.conflicts import conflict_undo
    from tests.factories import make_reviewer

    first = conflict_resolve(conflict=conflict, decision="keep_existing", note="first look")
    conflict_undo(resolution=first.resolution, user=make_reviewer("rita"))
    body = owner_client.get(url(worker, conflict)).json()
    assert body["status"] == "pending" and body["resolution"] is None
    [undone] = body["undone_resolutions"]
    assert undone["decision"] == "keep_existing" and undone["note"] == "first look"
    assert undone["undone_by"] == "rita" and undone["undone_at"]
