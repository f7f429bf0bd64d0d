import json
import os
import subprocess
import sys
from pathlib import Path

from werkzeug import Response


def assert_error(response, status: int, code: str | None = None, field: str | None = None) -> dict:
    """Every API error has one shape: {"error", "detail", "fields"}."""
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error", "detail", "fields"}, body
    assert body["detail"]
    if code:
        assert body["error"] == code, body
    if field:
        assert field in body["fields"], body
    return body


def chat_response(content) -> Response:
    """An OpenAI-compatible chat completion answering ``content`` (str, or an object sent
    as JSON)."""
    text = content if isinstance(content, str) else json.dumps(content)
    body = {"choices": [{"message": {"role": "assistant", "content": text}}]}
    return Response(json.dumps(body), content_type="application/json")


ROOT = Path(__file__).resolve().parents[1]


def site_env(data_dir: Path, **env: str) -> dict[str, str]:
    """The environment of a ``manage.py`` process on a data directory of its own (its own
    embedded PostgreSQL), not the test database: hash embeddings, a throw-away secret."""
    return {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "MEMORYHUB_EMBEDDED_CLEANUP", "DJANGO_SETTINGS_MODULE"}
    } | {
        "DJANGO_SETTINGS_MODULE": "memoryhub.settings",
        "MEMORYHUB_DATA_DIR": str(data_dir),
        "MEMORYHUB_EMBEDDINGS": "hash",
        "SECRET_KEY": "tests-only-secret",
        **env,
    }


def manage(env: dict[str, str], *args: str, timeout: int = 240) -> subprocess.CompletedProcess:
    """Run ``manage.py args`` in the project with ``env``; its output captured as text."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
