"""The bounded agent loop behind the in-process memory agents: a system prompt and a user
message, the agent's tools (``agents.tools``) as OpenAI function specs, then turn after
turn: ask the LLM, run each tool call it makes, hand the results back, until it answers.

- A tool call with malformed JSON arguments, naming a tool the agent does not have, or
  failing with a domain error is answered with a tool message carrying the error: the
  model reads it and may try again. It is counted as a failed step, never a 500.
- The run stops at ``MEMORYHUB_AGENTS["max_steps"]`` LLM calls (status ``max_steps``) or
  after ``MEMORYHUB_AGENTS["timeout"]`` seconds overall (status ``timeout``).
- A run's writes are one transaction, kept only when the run ends ``ok``: a run that times
  out, runs out of steps or fails leaves memory as it found it (its steps still show what
  was tried, marked ``rolled_back``).
- Every tool call is recorded in the run's ``steps`` (``AgentRun``) and logged.
"""

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from agents.models import AgentRun
from agents.tools import call_tool, openai_tools, tool_get
from memoryhub.errors import DomainError, NotFoundError
from memoryhub.models import Worker
from memoryhub.providers.llm import LLMError, LLMTimeoutError, chat_tools, llm_configured

logger = logging.getLogger(__name__)

SUMMARY_CHARS = 500  # of a tool result kept in the run's steps


class NoLLMError(DomainError):
    """The agent needs an LLM and none is configured."""

    status_code = 503
    code = "no_llm"

    def __init__(self, agent: str):
        super().__init__(
            f"no LLM configured: set MEMORYHUB_LLM_URL (and MEMORYHUB_LLM_MODEL, "
            f"MEMORYHUB_LLM_API_KEY) to an OpenAI-compatible chat endpoint to run the {agent}"
        )


@dataclass(frozen=True)
class AgentSpec:
    """An agent: its name (``AgentRun.Agent``), its system prompt and its tools. With
    ``must_write``, an answer before any successful writing tool call earns one reminder,
    then fails the run (seed 003's update agent: it MUST call a tool). ``guard`` may refuse
    a call before it runs (the refusal goes back to the model like any tool error)."""

    name: str
    system_prompt: str
    tools: tuple[str, ...]
    temperature: float = 0.5
    must_write: bool = False
    # Refuses a call before it runs (the error goes back to the model): (name, arguments,
    # state) -> DomainError | None.
    guard: Callable[[str, dict, "LoopState"], DomainError | None] | None = None
    reminder: str = (
        "You answered without calling a tool. You MUST perform the memory operation by "
        "calling one of your tools now; do not only describe it."
    )


@dataclass
class LoopState:
    """What a run has seen so far: the conversation, the steps and the tool results."""

    messages: list[dict]
    steps: list[dict] = field(default_factory=list)
    results: list[tuple[str, object]] = field(default_factory=list)  # (tool, result) when ok
    writes: int = 0
    llm_calls: int = 0
    answer: str = ""
    last_text: str = ""


class _RollBack(Exception):
    """Leaves the run's transaction so that its writes are undone."""


def _summary(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"


def _for_model(value) -> str:
    limit = settings.MEMORYHUB_AGENTS["tool_result_chars"]
    text = json.dumps(value, default=str, ensure_ascii=False)
    if len(text) > limit:
        text = text[:limit] + f"… [cut: {len(text) - limit} more characters]"
    return text


def _error_for_model(exc: DomainError) -> str:
    return json.dumps(
        {"error": exc.code, "detail": exc.detail, "fields": exc.fields}, ensure_ascii=False
    )


def _run_tool(*, worker: Worker, spec: AgentSpec, call, state: LoopState, round_: int) -> str:
    """Run one tool call and record it; returns the tool message's content."""
    started = time.perf_counter()
    step = {"round": round_, "tool": call.name, "arguments": _summary(call.arguments), "ok": False}
    try:
        if call.name not in spec.tools:
            raise NotFoundError(
                f"unknown tool {call.name!r}: your tools are {', '.join(spec.tools)}",
                fields={"name": "unknown tool"},
                code="unknown_tool",
            )
        try:
            arguments = json.loads(call.arguments or "{}")
        except json.JSONDecodeError as exc:
            raise DomainError(
                f"the arguments of {call.name} are not valid JSON ({exc.msg} at character "
                f"{exc.pos}); send them again as one JSON object",
                fields={"arguments": "malformed JSON"},
                code="malformed_arguments",
            ) from exc
        if not isinstance(arguments, dict):
            raise DomainError(
                f"the arguments of {call.name} must be a JSON object",
                fields={"arguments": "not an object"},
                code="malformed_arguments",
            )
        step["arguments"] = arguments
        refusal = spec.guard(call.name, arguments, state) if spec.guard else None
        if refusal is not None:
            raise refusal
        with transaction.atomic():  # a failing tool undoes only itself
            result = call_tool(worker=worker, name=call.name, arguments=arguments)
    except DomainError as exc:
        step["error"] = f"{exc.code}: {exc.detail}"
        content = _error_for_model(exc)
    except Exception as exc:  # a bug in a tool must not end the run with a 500
        logger.exception("agent %s: tool %s failed", spec.name, call.name)
        step["error"] = f"internal_error: {type(exc).__name__}"
        content = json.dumps(
            {"error": "internal_error", "detail": f"the tool {call.name} failed unexpectedly"}
        )
    else:
        step["ok"] = True
        step["result"] = _summary(result)
        state.results.append((call.name, result))
        if tool_get(call.name).writes:
            state.writes += 1
        content = _for_model(result)
    step["ms"] = round((time.perf_counter() - started) * 1000, 2)
    state.steps.append(step)
    logger.info(
        "agent %s worker %s: %s %s (%s ms)%s",
        spec.name,
        worker.pk,
        call.name,
        "ok" if step["ok"] else "failed",
        step["ms"],
        f": {step['error']}" if not step["ok"] else "",
    )
    return content


def _converse(*, worker: Worker, spec: AgentSpec, state: LoopState) -> tuple[str, str]:
    """The turns of one run; returns (status, error)."""
    config = settings.MEMORYHUB_AGENTS
    llm_timeout = settings.MEMORYHUB_LLM["timeout"]
    deadline = time.monotonic() + config["timeout"]
    tools = openai_tools(list(spec.tools))
    reminded = False
    for round_ in range(1, config["max_steps"] + 1):
        if time.monotonic() >= deadline:
            return AgentRun.Status.TIMEOUT, _timeout_error(config["timeout"])
        state.llm_calls += 1
        try:
            reply = chat_tools(
                messages=state.messages,
                tools=tools,
                timeout=llm_timeout,
                retries=config["llm_retries"],
                temperature=spec.temperature,
                deadline=deadline,
            )
        except LLMError as exc:
            if time.monotonic() >= deadline:
                return AgentRun.Status.TIMEOUT, f"{_timeout_error(config['timeout'])} ({exc})"
            if isinstance(exc, LLMTimeoutError):
                return AgentRun.Status.TIMEOUT, (
                    f"the LLM did not answer within {llm_timeout:g} s "
                    f"(MEMORYHUB_LLM_TIMEOUT): {exc}"
                )
            return AgentRun.Status.FAILED, f"the LLM failed: {exc}"
        state.messages.append(reply.message)
        if reply.content.strip():
            state.last_text = reply.content.strip()
        if reply.tool_calls:
            for call in reply.tool_calls:
                if time.monotonic() >= deadline:
                    return AgentRun.Status.TIMEOUT, _timeout_error(config["timeout"])
                content = _run_tool(worker=worker, spec=spec, call=call, state=state, round_=round_)
                state.messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
            continue
        if spec.must_write and not state.writes:
            if not reminded:
                reminded = True
                state.messages.append({"role": "user", "content": spec.reminder})
                continue
            return AgentRun.Status.FAILED, (
                f"the {spec.name} answered without performing a memory operation, even after "
                "a reminder: nothing was written"
            )
        state.answer = reply.content.strip()
        return AgentRun.Status.OK, ""
    return AgentRun.Status.MAX_STEPS, (
        f"stopped after {config['max_steps']} LLM calls without a final answer "
        "(MEMORYHUB_AGENTS_MAX_STEPS)"
    )


def _timeout_error(seconds: float) -> str:
    return f"the run took longer than {seconds:g} s (MEMORYHUB_AGENTS_TIMEOUT)"


def agent_run(
    *,
    worker: Worker,
    spec: AgentSpec,
    user_message: str,
    run_input: dict,
    finish: Callable[[LoopState], dict] | None = None,
) -> AgentRun:
    """Run ``spec`` on ``user_message`` for ``worker`` and record the run. ``finish`` (run
    inside the run's transaction when the loop ends ``ok``) returns the agent-specific
    ``result`` and may amend ``state.answer``. Raises ``NoLLMError`` without an LLM."""
    if not llm_configured():
        raise NoLLMError(spec.name)
    run = AgentRun.objects.create(worker=worker, agent=spec.name, input=run_input)
    started = time.perf_counter()
    state = LoopState(
        messages=[
            {"role": "system", "content": spec.system_prompt},
            {"role": "user", "content": user_message},
        ]
    )
    result: dict = {}
    try:
        with transaction.atomic():
            status, error = _converse(worker=worker, spec=spec, state=state)
            if status == AgentRun.Status.OK and finish is not None:
                result = finish(state)
            if status != AgentRun.Status.OK:
                raise _RollBack
    except _RollBack:
        written = [s for s in state.steps if s["ok"] and tool_get(s["tool"]).writes]
        for step in written:
            step["rolled_back"] = True
        if written:
            error += f"; the run's {len(written)} write(s) were rolled back: nothing was written"
    except Exception as exc:  # recorded, then raised: a run never stays "running"
        status, error = AgentRun.Status.FAILED, f"internal error: {type(exc).__name__}: {exc}"
        _record(run, state, status, error, result, started)
        raise
    _record(run, state, status, error, result, started)
    return run


def _record(run: AgentRun, state: LoopState, status: str, error: str, result: dict, started):
    run.status = status
    run.error = error
    run.answer = state.answer or ("" if status == AgentRun.Status.OK else state.last_text)
    run.steps = state.steps
    run.llm_calls = state.llm_calls
    run.result = result
    run.finished_at = timezone.now()
    run.duration_ms = round((time.perf_counter() - started) * 1000, 2)
    run.save()
    logger.info(
        "agent %s run %s for worker %s: %s after %s LLM calls, %s tool calls",
        run.agent,
        run.pk,
        run.worker_id,
        status,
        state.llm_calls,
        len(state.steps),
    )
