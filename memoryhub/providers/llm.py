"""Any OpenAI-compatible chat endpoint (OpenAI, Gemini's compatible endpoint, Ollama,
vLLM) asked for JSON that follows a schema. Optional: every use has a local fallback."""

import json
import logging
import time
import urllib.error
import urllib.request

from django.conf import settings

logger = logging.getLogger(__name__)


class LLMError(Exception):
    """The LLM endpoint failed or answered something that is not the JSON asked for."""


def llm_configured() -> bool:
    return bool(settings.MEMORYHUB_LLM["url"])


def chat_json(*, system: str, user: str, schema: dict, schema_name: str, retries: int = 2) -> dict:
    config = settings.MEMORYHUB_LLM
    if not config["url"]:
        raise LLMError("MEMORYHUB_LLM_URL is not set")
    url = config["url"].rstrip("/")
    endpoint = url if url.endswith("/chat/completions") else f"{url}/chat/completions"
    body = json.dumps({
        "model": config["model"],
        "temperature": 0,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        "response_format": {"type": "json_schema", "json_schema": {"name": schema_name, "schema": schema, "strict": True}},
    }).encode()
    headers = {"Content-Type": "application/json"}
    if config["api_key"]:
        headers["Authorization"] = f"Bearer {config['api_key']}"
    delay = 0.5
    for attempt in range(retries + 1):
        request = urllib.request.Request(endpoint, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=config["timeout"]) as response:
                payload = json.loads(response.read())
            break
        except urllib.error.HTTPError as exc:
            if not (exc.code == 429 or exc.code >= 500) or attempt == retries:
                raise LLMError(f"LLM endpoint {endpoint} answered HTTP {exc.code}") from exc
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            if attempt == retries:
                raise LLMError(f"LLM endpoint {endpoint} is unreachable: {exc}") from exc
        except json.JSONDecodeError as exc:
            raise LLMError(f"LLM endpoint {endpoint} answered a body that is not JSON") from exc
        time.sleep(delay)
        delay *= 2
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
