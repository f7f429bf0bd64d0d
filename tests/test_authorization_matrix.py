"""The authorization matrix: every endpoint and every page, found by walking the URL
configuration (a new one is covered the day it is added), against anonymous, an agent of
worker A, an agent of worker B, a reviewer and staff.

- API, anonymous: 401 (the health check and schema excepted).
- API, agent B on worker A's URLs: 404 for every method, and nothing changes.
- API, agent A and staff on A's URLs: never 401/403/404 for reads.
- Pages, anonymous: a redirect to the login page (the login page itself excepted).
- Pages, an agent's token: no way in (pages use the browser session, never tokens).
- Tier browser pages: staff only (403 for a reviewer without staff).
"""

import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import URLResolver, get_resolver

from consolidation.services.shortterm_to_longterm import promotion_check
from graph.models import Entity
from memoryhub.services.workers import token_issue
from review.services.conflicts import conflict_resolve
from tests.factories import TASK_TEMPLATE, make_conflict
from tiers.models import LongtermChunk
from tiers.services.active import active_memory_create
from tiers.services.shortterm import shortterm_memory_create

pytestmark = pytest.mark.django_db

PUBLIC_API = {"api/v1/", "api/v1/health", "api/schema/", "api/docs/", "api/redoc/"}
PUBLIC_PAGES = {"accounts/login/", "accounts/logout/"}
METHODS = ("get", "post", "put", "patch", "delete")


def _routes():
    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern), pattern

    return [(route, p) for route, p in walk(get_resolver().url_patterns) if "admin/" not in route]


def _methods(pattern) -> list[str]:
    view = getattr(pattern.callback, "view_class", None)
    if view is None:
        return ["get", "post"]
    return [m for m in METHODS if hasattr(view, m)]


@pytest.fixture
def world(worker, other_worker, staff_user, reviewer):
    """Worker A with something behind every kind of id; B with its own token."""
    active = active_memory_create(
        worker=worker,
        title="Sprint",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "Ship it"},
    )
    memory = shortterm_memory_create(
        worker=worker, title="Billing", content="Maria owns the billing service in Lisbon."
    )
    promotion_check(memory=memory, manual=True)
    conflict = make_conflict(worker)
    decided = make_conflict(worker, existing="Lunch at noon.", incoming="Lunch at one.")
    resolution = conflict_resolve(conflict=decided, decision="keep_existing", user=staff_user)
    ids = {
        "worker_id": worker.pk,
        "memory_id": memory.pk,
        "active_memory_id": active.pk,
        "chunk_id": LongtermChunk.objects.filter(worker=worker).first().pk,
        "entity_id": Entity.objects.filter(worker=worker).first().pk,
        "conflict_id": conflict.pk,
        "resolution_id": resolution.resolution.pk,
        "source_id": memory.pk,
        "section": "objective",
        "name": "retrieve",
    }
    return {
        "ids": ids,
        "a": token_issue(worker=worker, name="a")[1],
        "b": token_issue(worker=other_worker, name="b")[1],
        "staff": token_issue(user=staff_user, name="s")[1],
        "reviewer": reviewer,
        "staff_user": staff_user,
    }


def _url(route: str, ids: dict) -> str:
    def fill(match):
        name = match.group(2)
        if name == "memory_id" and "/active/" in route:
            return str(ids["active_memory_id"])
        return str(ids.get(name, 1))

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", fill, route)


def _api(key: str | None) -> Client:
    client = Client()
    if key:
        client.defaults["HTTP_AUTHORIZATION"] = f"Token {key}"
    return client


def _snapshot() -> dict:
    with connection.cursor() as cursor:
        counts = {}
        for table in (
            "tiers_activememory",
            "tiers_shorttermmemory",
            "tiers_shorttermchunk",
            "tiers_longtermchunk",
            "tiers_memoryevent",
            "graph_entity",
            "review_mergeconflict",
        ):
            cursor.execute(f"SELECT count(*), coalesce(sum(hashtext(t::text)), 0) FROM {table} t")
            counts[table] = cursor.fetchone()
    return counts


def test_the_api_is_closed_to_anonymous_and_other_workers(world):
    ids = world["ids"]
    anonymous, agent_b = _api(None), _api(world["b"])
    checked = 0
    before = _snapshot()
    for route, pattern in _routes():
        if not route.startswith("api/") or route in PUBLIC_API:
            continue
        url = _url(route, ids)
        for method in _methods(pattern):
            response = getattr(anonymous, method)(url, {}, content_type="application/json")
            assert response.status_code == 401, (method, url, response.status_code)
            if "<int:worker_id>" in route:
                response = getattr(agent_b, method)(url, {}, content_type="application/json")
                assert response.status_code == 404, (method, url, response.status_code)
            checked += 1
    assert checked > 60
    after = _snapshot()
    changed = {t: (before[t], after[t]) for t in before if before[t] != after[t]}
    assert not changed  # nothing another worker or nobody sent changed anything


def test_the_owner_and_staff_read_every_worker_endpoint(world):
    ids = world["ids"]
    for key in (world["a"], world["staff"]):
        client = _api(key)
        for route, pattern in _routes():
            if "<int:worker_id>" not in route or "get" not in _methods(pattern):
                continue
            url = _url(route, ids)
            response = client.get(url)
            unknown_id = any(name not in ids for name in re.findall(r"<\w+:(\w+)>", route))
            allowed = (401, 403) if unknown_id else (401, 403, 404)  # no such object: 404
            assert response.status_code not in allowed, (url, response.status_code)


def test_pages_need_a_browser_login_and_the_tier_browser_needs_staff(world):
    ids = world["ids"]
    anonymous, with_token = Client(), Client(HTTP_AUTHORIZATION=f"Token {world['a']}")
    reviewer = Client()
    reviewer.force_login(world["reviewer"])
    staff = Client()
    staff.force_login(world["staff_user"])
    for route, _ in _routes():
        if route.startswith("api/") or route in PUBLIC_PAGES:
            continue
        url = _url(route, ids)
        for client in (anonymous, with_token):
            response = client.get(url)
            if response.status_code == 405:  # a form's POST-only action
                response = client.post(url)
            assert response.status_code == 302, (url, response.status_code)
            assert "/accounts/login/" in response["Location"], url
        if route.startswith("browse/"):
            assert reviewer.get(url).status_code in (403, 405), url
            assert reviewer.post(url).status_code in (403, 405), url
            assert staff.get(url).status_code in (200, 405), url
