"""Any OpenAI-compatible chat endpoint (OpenAI, Gemini's compatible endpoint, Ollama,
vLLM): asked for JSON that follows a schema (``chat_json``), or one turn of a chat with
function calling (``chat_tools``, the memory agents' loop). Optional: every use has a local
fallback."""

import json
from dataclasses import dataclass

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


class LLMTimeoutError(LLMError):
    """The LLM endpoint did not answer within the timeout."""


@dataclass(frozen=True)
class ToolCall:
    """One function call the model asked for; ``arguments`` is the JSON text as sent
    (the caller parses it: a model may send malformed JSON)."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ChatReply:
    """The assistant's turn: its text, its tool calls, and the message to send back."""

    content: str
    tool_calls: list[ToolCall]
    message: dict


def _timed_out(exc: BaseException) -> bool:
    cause = exc.__cause__
    return isinstance(cause, TimeoutError) or isinstance(
        getattr(cause, "reason", None), TimeoutError
    )


def chat_tools(
    *,
    messages: list[dict],
    tools: list[dict],
    timeout: float | None = None,
    retries: int = 1,
    temperature: float = 0,
    deadline: float | None = None,
) -> ChatReply:
    """One turn of a chat with function calling (``tools``: OpenAI function specs).
    ``timeout`` (seconds, per attempt) defaults to ``MEMORYHUB_LLM["timeout"]``;
    ``deadline`` (``time.monotonic()``) bounds the attempts together. A timeout raises
    ``LLMTimeoutError``, any other failure ``LLMError``."""
    config = settings.MEMORYHUB_LLM
    if not config["url"]:
        raise LLMError("MEMORYHUB_LLM_URL is not set")
    body = {
        "model": config["model"],
        "temperature": temperature,
        "messages": messages,
    }
    if tools:
        body |= {"tools": tools, "tool_choice": "auto"}
    try:
        payload = post_json(
            endpoint_url(config["url"], "/chat/completions"),
            body,
            api_key=config["api_key"],
            timeout=config["timeout"] if timeout is None else timeout,
            retries=retries,
            error=LLMError,
            label="LLM",
            deadline=deadline,
        )
    except LLMError as exc:
        if _timed_out(exc):
            raise LLMTimeoutError(str(exc)) from exc
        raise
    try:
        message = payload["choices"][0]["message"]
    except (KeyError, IndexError, TypeError) as exc:
        raise LLMError("LLM answer has no choices[0].message") from exc
    if not isinstance(message, dict):
        raise LLMError("LLM answer's choices[0].message is not an object")
    calls = []
    for index, raw in enumerate(message.get("tool_calls") or []):
        raw = raw if isinstance(raw, dict) else {}
        function = raw.get("function") if isinstance(raw.get("function"), dict) else {}
        arguments = function.get("arguments")
        if not isinstance(arguments, str):  # some servers send the object itself
            arguments = json.dumps(arguments if arguments is not None else {})
        calls.append(
            ToolCall(
                id=str(raw.get("id") or f"call_{index}"),
                name=str(function.get("name") or ""),
                arguments=arguments,
            )
        )
    content = message.get("content") or ""
    sent_back = {"role": "assistant", "content": content or None}
    if calls:
        sent_back["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for call in calls
        ]
    return ChatReply(content=str(content), tool_calls=calls, message=sent_back)
