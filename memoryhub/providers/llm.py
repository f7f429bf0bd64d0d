"""Any OpenAI-compatible chat endpoint (OpenAI, Gemini's compatible endpoint, Ollama,
vLLM) asked for JSON that follows a schema. Optional: every use has a local fallback."""

import json

from django.conf import settings

from memoryhub.providers.http import endpoint_url, post_json


class LLMError(Exception):
    """The LLM endpoint failed or answered something that is not the JSON asked for."""


def llm_configured() -> bool:
    return bool(settings.MEMORYHUB_LLM["url"])


def chat_json(*, system: str, user: str, schema: dict, schema_name: str, retries: int = 2) -> dict:
    config = settings.MEMORYHUB_LLM
    if not config["url"]:
        raise LLMError("MEMORYHUB_LLM_URL is not set")
    payload = post_json(
        endpoint_url(config["url"], "/chat/completions"),
        {
            "model": config["model"],
            "temperature": 0,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema, "strict": True},
            },
        },
        api_key=config["api_key"],
        timeout=config["timeout"],
        retries=retries,
        error=LLMError,
        label="LLM",
    )
    try:
        content = payload["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError) as exc:
        raise LLMError("LLM answer has no choices[0].message.content") from exc
    try:
        parsed = json.loads(content)
    except (TypeError, json.JSONDecodeError) as exc:
        raise LLMError(f"LLM answer is not JSON: {str(content)[:200]!r}") from exc
    if not isinstance(parsed, dict):
        raise LLMError("LLM answer is not a JSON object")
    return parsed
