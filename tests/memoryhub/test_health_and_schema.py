import re

import pytest
from drf_spectacular.validation import validate_schema

pytestmark = pytest.mark.django_db


def test_health_reports_database_pgvector_and_queue(anon_client):
    response = anon_client.get("/api/v1/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True and body["database"]["version"].startswith(
        ("16", "17", "18")
    )
    assert body["pgvector"]["ok"] is True and body["pgvector"]["version"] >= "0.7"
    assert set(body["queue"]) >= {"cluster_running", "queued", "failed_last_24h", "last_success"}
    assert body["neo4j"] == {"configured": False}


def test_the_api_root_lists_the_entry_points(anon_client):
    body = anon_client.get("/api/v1/").json()
    assert body["endpoints"]["health"].endswith("/api/v1/health")
    assert body["schema"].endswith("/api/schema/")


def test_the_openapi_schema_is_valid_and_covers_the_api(anon_client):
    response = anon_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    validate_schema(schema)
    paths = schema["paths"]
    for path in [
        "/api/v1/health",
        "/api/v1/me",
        "/api/v1/workers/",
        "/api/v1/workers/{worker_id}/tokens/",
        "/api/v1/workers/{worker_id}/active/",
        "/api/v1/workers/{worker_id}/active/detailed",
        "/api/v1/workers/{worker_id}/active/{memory_id}/",
        "/api/v1/workers/{worker_id}/active/{memory_id}/sections",
        "/api/v1/workers/{worker_id}/active/{memory_id}/sections/{section}",
        "/api/v1/workers/{worker_id}/shortterm/",
        "/api/v1/workers/{worker_id}/shortterm/recent",
        "/api/v1/workers/{worker_id}/shortterm/{memory_id}/",
        "/api/v1/workers/{worker_id}/shortterm/{memory_id}/chunks",
        "/api/v1/workers/{worker_id}/search/shortterm",
        "/api/v1/workers/{worker_id}/shortterm/{memory_id}/graph",
        "/api/v1/workers/{worker_id}/entities/",
        "/api/v1/workers/{worker_id}/entities/{entity_id}/neighbourhood",
        "/api/v1/workers/{worker_id}/graph/path",
        "/api/v1/workers/{worker_id}/graph/history",
        "/api/v1/workers/{worker_id}/conflicts/",
        "/api/v1/workers/{worker_id}/conflicts/{conflict_id}/resolve",
    ]:
        assert path in paths, path
    create = paths["/api/v1/workers/{worker_id}/active/"]["post"]
    assert any(p["name"] == "Idempotency-Key" for p in create["parameters"])
    assert "TokenAuth" in schema["components"]["securitySchemes"]


def test_swagger_ui_is_served_locally(client):
    page = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in page
    # No asset from another host: no CDN or unpkg host name, no src/href to another origin
    # (a bare "cdn" can occur in the page's random CSRF token).
    lowered = page.lower()
    assert not re.search(r"(?<![\w])(?:[\w-]+\.)*(?:cdn|cdnjs|jsdelivr)[\w-]*\.[a-z]{2,}", lowered)
    assert "unpkg" not in lowered
    assert not re.search(r"""(?:src|href)\s*=\s*["'](?:https?:)?//""", lowered)
    assert "/static/drf_spectacular_sidecar/" in page


def test_schema_generation_has_no_warnings():
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out, stderr=StringIO())
    assert out.getvalue().startswith("openapi:")
