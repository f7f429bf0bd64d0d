import json

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
