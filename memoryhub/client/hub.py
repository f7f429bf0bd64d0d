"""``MemoryHub`` (sync) and ``AsyncMemoryHub``: one method per endpoint, written once.

Each method below only describes its call (a :class:`Call`); the :class:`endpoint`
descriptor makes it the client's method: ``MemoryHub``'s returns the answer,
``AsyncMemoryHub``'s an awaitable of it. Type checkers see both (the descriptor's
overloads carry the parameters and the result type).
"""

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Concatenate, Generic, Literal, ParamSpec, TypeVar, overload
from urllib.parse import quote

import httpx

from memoryhub.client import types as t
from memoryhub.client.core import Call, Exchange, Outcome, RetryPolicy

P = ParamSpec("P")
T = TypeVar("T")

When = datetime | str  # a moment: a datetime or an ISO 8601 string

# An agent's run takes up to MEMORYHUB_AGENTS_TIMEOUT (60 s by default) on the server.
AGENT_TIMEOUT = 120.0


class endpoint(Generic[P, T]):  # lower case: a decorator, like property
    """Makes a method that returns a ``Call[T]`` into one that makes the call."""

    def __init__(self, describe: Callable[Concatenate[Any, P], Call[T]]):
        self.describe = describe
        self.__doc__ = describe.__doc__

    @overload
    def __get__(self, hub: None, owner: type) -> "endpoint[P, T]": ...
    @overload
    def __get__(self, hub: "MemoryHub", owner: type) -> Callable[P, T]: ...
    @overload
    def __get__(self, hub: "AsyncMemoryHub", owner: type) -> Callable[P, Awaitable[T]]: ...

    def __get__(self, hub: "_Client | None", owner: type) -> Any:
        if hub is None:
            return self
        describe = self.describe

        @functools.wraps(describe)
        def call(*args: P.args, **kwargs: P.kwargs) -> Any:
            return hub._send(describe(hub, *args, **kwargs))

        return call


def _arguments(given: dict[str, Any], *in_path: str) -> dict[str, Any]:
    """A method's arguments (its ``locals()`` before it sets any) as the request's body or
    query: named as the API names them, without ``self``, those in the path and those
    left ``None`` (the API's defaults apply)."""
    skip = {"self", *in_path}
    return {name: value for name, value in given.items() if name not in skip and value is not None}


class _Endpoints:
    """The API's endpoints (README, "API (v1)"). Ids are the API's; ``memory_id`` is a
    shortterm memory unless the method says active."""

    # --- Who and which worker -------------------------------------------------------

    @endpoint
    def me(self) -> Call[t.Me]:
        """Who the token belongs to (a worker, or a staff user)."""
        return Call("GET", "me", scoped=False)

    @endpoint
    def workers(
        self, *, page: int | None = None, page_size: int | None = None
    ) -> Call[t.Page[t.Worker]]:
        """The workers this token reaches (its own for an agent, all for staff)."""
        return Call("GET", "workers/", params=_arguments(locals()), scoped=False)

    @endpoint
    def health(self) -> Call[dict[str, Any]]:
        """Database, pgvector, queue and Neo4j status (:class:`ServerError` 503 when down)."""
        return Call("GET", "health", scoped=False)

    @endpoint
    def worker(self) -> Call[t.Worker]:
        """The client's worker."""
        return Call("GET", "")

    # --- Active memory ----------------------------------------------------------------

    @endpoint
    def list_active(
        self,
        *,
        q: str | None = None,
        updated_after: When | None = None,
        page: int | None = None,
        page_size: int | None = None,
    ) -> Call[t.Page[t.ActiveMemorySummary]]:
        """Summaries of the active memories (ids, titles, per-section counts)."""
        return Call("GET", "active/", params=_arguments(locals()))

    @endpoint
    def create_active(
        self,
        title: str,
        template_content: str,
        *,
        description: str = "",
        initial_sections: Mapping[str, str] | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Call[t.ActiveMemory]:
        """An active memory from a YAML template; ``initial_sections`` by section id
        or name."""
        return Call("POST", "active/", _arguments(locals()), write=True)

    @endpoint
    def get_active(self, memory_id: int) -> Call[t.ActiveMemory]:
        return Call("GET", f"active/{memory_id}/")

    @endpoint
    def get_active_detailed(self, ids: Sequence[int]) -> Call[list[t.ActiveMemory]]:
        """Full active memories for ``ids``, in that order (404 naming unknown ids)."""
        return Call("POST", "active/detailed", {"ids": list(ids)})

    @endpoint
    def update_active(
        self,
        memory_id: int,
        *,
        title: str | None = None,
        description: str | None = None,
        template_content: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        sections: Mapping[str, str] | None = None,
    ) -> Call[t.ActiveMemory]:
        """Any of title, description, template, metadata and section contents, at once."""
        return Call("PATCH", f"active/{memory_id}/", _arguments(locals(), "memory_id"), write=True)

    @endpoint
    def update_active_sections(
        self, memory_id: int, sections: Mapping[str, str]
    ) -> Call[t.ActiveMemory]:
        """Replace sections' content (by id or name); each section's count goes up one."""
        return Call("PATCH", f"active/{memory_id}/sections", {"sections": sections}, write=True)

    @endpoint
    def delete_active(self, memory_id: int) -> Call[None]:
        return Call("DELETE", f"active/{memory_id}/", write=True)

    @endpoint
    def consolidate_active(self, memory_id: int) -> Call[dict[str, Any]]:
        """Consolidate an active memory into the shortterm tier now (the task is done):
        the run, with each section merged, in conflict, created or skipped."""
        return Call("POST", f"active/{memory_id}/consolidate", write=True, once=True)

    @endpoint
    def update_active_section(
        self, memory_id: int, section: str, content: str
    ) -> Call[t.ActiveMemory]:
        """Replace one section's content (by id or name); its count goes up one. (Sent as
        PATCH .../sections, which takes any name: one with a slash could not be a path.)"""
        body = {"sections": {section: content}}
        return Call("PATCH", f"active/{memory_id}/sections", body, write=True)

    @endpoint
    def auto_resolve(
        self,
        memory_id: int,
        shortterm_memory_id: int,
        *,
        section: str | None = None,
        limit: int | None = None,
    ) -> Call[dict[str, Any]]:
        """The memorizer's ``auto_resolve`` for active memory ``memory_id``: its content,
        the shortterm memory's most similar chunks, and the entity and relationship
        differences (new ones are added to that memory's graph, conflicts reported)."""
        body = _arguments(locals(), "memory_id")
        return Call("POST", f"active/{memory_id}/auto-resolve", body, write=True)

    @endpoint
    def consolidation_runs(
        self, *, page: int | None = None, page_size: int | None = None
    ) -> Call[t.Page[dict[str, Any]]]:
        """Consolidation runs with their per-section outcomes, newest first."""
        return Call("GET", "consolidation/runs", params=_arguments(locals()))

    # --- Shortterm memory -------------------------------------------------------------

    @endpoint
    def list_shortterm(
        self, *, page: int | None = None, page_size: int | None = None
    ) -> Call[t.Page[t.ShorttermSummary]]:
        """Summaries, newest first."""
        return Call("GET", "shortterm/", params=_arguments(locals()))

    @endpoint
    def recent_shortterm(
        self, *, limit: int | None = None, since: When | None = None
    ) -> Call[list[t.ShorttermSummary]]:
        """The latest memories, newest first, optionally since a moment."""
        return Call("GET", "shortterm/recent", params=_arguments(locals()))

    @endpoint
    def create_shortterm(
        self,
        title: str,
        *,
        content: str | None = None,
        chunks: Sequence[t.ChunkInput | str] | None = None,
        summary: str = "",
        metadata: Mapping[str, Any] | None = None,
    ) -> Call[t.ShorttermMemory]:
        """A shortterm memory from ``content`` (chunked by the server) and/or ``chunks``."""
        body = _arguments(locals())
        if chunks is not None:
            body["chunks"] = _chunks(chunks)
        return Call("POST", "shortterm/", body, write=True)

    @endpoint
    def get_shortterm(self, memory_id: int) -> Call[t.ShorttermMemory]:
        """One memory with its chunks and graph."""
        return Call("GET", f"shortterm/{memory_id}/")

    @endpoint
    def update_shortterm(
        self,
        memory_id: int,
        *,
        title: str | None = None,
        summary: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Call[t.ShorttermMemory]:
        return Call(
            "PATCH", f"shortterm/{memory_id}/", _arguments(locals(), "memory_id"), write=True
        )

    @endpoint
    def delete_shortterm(self, memory_id: int) -> Call[None]:
        return Call("DELETE", f"shortterm/{memory_id}/", write=True)

    @endpoint
    def add_chunks(
        self, memory_id: int, chunks: Sequence[t.ChunkInput | str]
    ) -> Call[list[t.Chunk]]:
        """Append chunks (a string is a chunk's content)."""
        body = {"chunks": _chunks(chunks)}
        return Call("POST", f"shortterm/{memory_id}/chunks", body, write=True)

    @endpoint
    def update_chunks(
        self, memory_id: int, updates: Mapping[int, str] | Sequence[t.ChunkUpdate]
    ) -> Call[list[t.Chunk]]:
        """New content for chunks: ``{chunk_id: new_content}`` or
        ``[{"chunk_id", "new_content"}]``."""
        if isinstance(updates, Mapping):
            updates = [{"chunk_id": key, "new_content": text} for key, text in updates.items()]
        body = {"updates": list(updates)}
        return Call("PATCH", f"shortterm/{memory_id}/chunks", body, write=True)

    # --- The entity graph -----------------------------------------------------------

    @endpoint
    def memory_graph(self, memory_id: int) -> Call[t.Graph]:
        """The entities and relationships extracted from a shortterm memory."""
        return Call("GET", f"shortterm/{memory_id}/graph")

    @endpoint
    def update_memory_graph(
        self,
        memory_id: int,
        *,
        entities: Sequence[Mapping[str, Any]] | None = None,
        relationships: Sequence[Mapping[str, Any]] | None = None,
        new_relationships: Sequence[Mapping[str, Any]] | None = None,
    ) -> Call[t.Graph]:
        """Correct entities (``{id, name?, type?, ...}``) and relationships, add new
        relationships (``{from_id, to_id, type, ...}``)."""
        body = _arguments(locals(), "memory_id")
        return Call("PATCH", f"shortterm/{memory_id}/graph", body, write=True)

    @endpoint
    def entities(
        self,
        prefix: str,
        *,
        tier: Literal["shortterm", "longterm"] | None = None,
        limit: int | None = None,
    ) -> Call[list[dict[str, Any]]]:
        """Entities whose name starts with ``prefix``."""
        return Call("GET", "entities/", params=_arguments(locals()))

    @endpoint
    def entity(self, entity_id: int) -> Call[dict[str, Any]]:
        return Call("GET", f"entities/{entity_id}/")

    @endpoint
    def neighbourhood(
        self, entity_id: int, *, hops: int | None = None, limit: int | None = None
    ) -> Call[dict[str, Any]]:
        """The entities within ``hops`` (1 to 3) of one, with the relationships among them."""
        params = _arguments(locals(), "entity_id")
        return Call("GET", f"entities/{entity_id}/neighbourhood", params=params)

    @endpoint
    def entity_history(self, entity_id: int) -> Call[dict[str, Any]]:
        """An entity through time: shortterm observations, longterm record, versions."""
        return Call("GET", f"entities/{entity_id}/history")

    @endpoint
    def graph_path(
        self, from_id: int, to_id: int, *, max_hops: int | None = None
    ) -> Call[dict[str, Any]]:
        """The shortest path between two entities."""
        params = {"from": from_id, "to": to_id, "max_hops": max_hops}
        return Call("GET", "graph/path", params=params)

    @endpoint
    def graph_history(self, from_id: int, to_id: int) -> Call[list[dict[str, Any]]]:
        """Every version of the relationships between two entities."""
        return Call("GET", "graph/history", params={"from": from_id, "to": to_id})

    # --- Search, retrieval, context ---------------------------------------------------

    @endpoint
    def search_shortterm(
        self,
        query: str | None = None,
        *,
        search_queries: Sequence[t.SearchQuery] | None = None,
        mode: t.SearchMode | None = None,
        limit: int | None = None,
        min_similarity: float | None = None,
        memory_ids: Sequence[int] | None = None,
        metadata: Mapping[str, Any] | None = None,
        include_graph: bool | None = None,
        session_id: str | None = None,
        record_access: bool | None = None,
    ) -> Call[t.SearchResults]:
        """Hybrid (default), vector or BM25 search of the shortterm tier: a ``query``, or
        ``search_queries`` within given memories. Hits carry their chunk's graph unless
        ``include_graph=False``."""
        return Call("POST", "search/shortterm", _arguments(locals()))

    @endpoint
    def search_longterm(
        self,
        query: str,
        *,
        mode: t.SearchMode | None = None,
        limit: int | None = None,
        valid_at: When | None = None,
        time_range: tuple[When | None, When | None] | None = None,
        confidence_threshold: float | None = None,
        memory_ids: Sequence[int] | None = None,
        metadata: Mapping[str, Any] | None = None,
        include_graph: bool | None = None,
    ) -> Call[t.SearchResults]:
        """Search the longterm tier: the current versions, those valid at ``valid_at``,
        or those overlapping ``time_range``."""
        return Call("POST", "search/longterm", _arguments(locals()))

    @endpoint
    def retrieve(
        self,
        query: str,
        *,
        tiers: Literal["auto"] | Sequence[t.Tier] = "auto",
        limit: int | None = None,
        mode: t.SearchMode | None = None,
        valid_at: When | None = None,
        include_graph: bool | None = None,
        session_id: str | None = None,
        record_access: bool | None = None,
    ) -> Call[t.Retrieval]:
        """One query across the tiers; ``tiers="auto"`` lets the server pick them by the
        query (``reason`` says why). Results grouped per tier."""
        return Call("POST", "retrieve", _arguments(locals()))

    @endpoint
    def build_context(
        self,
        query: str,
        *,
        max_short: int | None = None,
        max_long: int | None = None,
        token_budget: int | None = None,
        valid_at: When | None = None,
    ) -> Call[t.Context]:
        """A context block for a prompt (``markdown``): recent shortterm memories and
        relevant longterm ones, within ``token_budget`` tokens."""
        return Call("POST", "context", _arguments(locals()))

    # --- Usage signals and promotion --------------------------------------------------

    @endpoint
    def record_event(
        self,
        memory_id: int,
        kind: t.EventKind,
        *,
        session_id: str | None = None,
        chunk_id: int | None = None,
        detail: Any = None,
        importance: float | None = None,
    ) -> Call[t.UsageEvent]:
        """A usage signal on a shortterm memory (it counts towards its promotion)."""
        return Call(
            "POST", f"shortterm/{memory_id}/events", _arguments(locals(), "memory_id"), write=True
        )

    @endpoint
    def usage(self, memory_id: int, *, limit: int | None = None) -> Call[t.Usage]:
        """A shortterm memory's usage summary and latest events."""
        return Call(
            "GET", f"shortterm/{memory_id}/events", params=_arguments(locals(), "memory_id")
        )

    @endpoint
    def promotion(self, memory_id: int) -> Call[t.PromotionState]:
        """The memory's promotion score against the threshold (404 before its first check)."""
        return Call("GET", f"shortterm/{memory_id}/promotion")

    @endpoint
    def request_promotion(self, memory_id: int) -> Call[t.PromotionOutcome]:
        """Promote the memory to the longterm tier now, whatever its score."""
        return Call("POST", f"shortterm/{memory_id}/promotion", write=True)

    @endpoint
    def promotion_sweeps(
        self, *, page: int | None = None, page_size: int | None = None
    ) -> Call[t.Page[dict[str, Any]]]:
        return Call("GET", "promotions/", params=_arguments(locals()))

    @endpoint
    def run_promotion_sweep(self) -> Call[t.TaskQueued]:
        """Queue a promotion sweep of the worker."""
        return Call("POST", "promotions/", write=True)

    # --- Longterm memory --------------------------------------------------------------

    @endpoint
    def list_longterm(
        self,
        *,
        valid_at: When | None = None,
        confidence_threshold: float | None = None,
        page: int | None = None,
        page_size: int | None = None,
    ) -> Call[t.Page[t.LongtermChunk]]:
        """The current longterm versions, or those valid at ``valid_at``."""
        return Call("GET", "longterm/", params=_arguments(locals()))

    @endpoint
    def get_longterm(self, chunk_id: int) -> Call[t.LongtermChunk]:
        return Call("GET", f"longterm/{chunk_id}/")

    @endpoint
    def longterm_history(self, memory_id: int) -> Call[list[t.LongtermChunk]]:
        """Every version promoted from shortterm memory ``memory_id``, newest first."""
        return Call("GET", f"longterm/history/{memory_id}")

    # --- The review queue -------------------------------------------------------------

    @endpoint
    def conflicts(
        self,
        *,
        status: str | None = None,
        page: int | None = None,
        page_size: int | None = None,
    ) -> Call[t.Page[t.Conflict]]:
        """Merge conflicts, newest first; ``status="pending"`` for the open ones."""
        return Call("GET", "conflicts/", params=_arguments(locals()))

    @endpoint
    def get_conflict(self, conflict_id: int) -> Call[t.Conflict]:
        return Call("GET", f"conflicts/{conflict_id}/")

    @endpoint
    def resolve_conflict(
        self,
        conflict_id: int,
        decision: t.Decision,
        *,
        edited_text: str | None = None,
        note: str | None = None,
    ) -> Call[t.Conflict]:
        """Decide a pending conflict (``merge_edited`` takes ``edited_text``); a conflict
        already resolved answers 409 (:class:`ConflictError`)."""
        return Call(
            "POST",
            f"conflicts/{conflict_id}/resolve",
            _arguments(locals(), "conflict_id"),
            write=True,
            once=True,
        )

    # --- Tools (the registry the MCP server and the memory agents use) ---------------

    @endpoint
    def tools(self) -> Call[list[t.Tool]]:
        """Every tool as an OpenAI function-calling definition (``tools=`` of a chat
        completion)."""
        return Call("GET", "tools", scoped=False)

    @endpoint
    def call_tool(self, name: str, /, **arguments: Any) -> Call[t.ToolResult]:
        """Invoke tool ``name`` for the worker with ``arguments``; what it returned is
        ``["result"]``. A retried call to a tool that writes is done once."""
        return Call("POST", f"tools/{quote(name, safe='')}", arguments, write=True)

    # --- The memory agents (seed 003), run by the server with its LLM ----------------

    @endpoint
    def run_updater(
        self, message: str, *, active_memory_id: int | None = None, timeout: float = AGENT_TIMEOUT
    ) -> Call[t.AgentRun]:
        """The memory update agent turns ``message`` into a created or updated active
        memory. 503 ``no_llm`` (:class:`ServerError`) when the server has no LLM."""
        return _agent_run("updater", _arguments(locals(), "timeout"), timeout)

    @endpoint
    def run_memorizer(
        self,
        active_memory_id: int,
        *,
        shortterm_memory_id: int | None = None,
        message: str | None = None,
        timeout: float = AGENT_TIMEOUT,
    ) -> Call[t.AgentRun]:
        """The memorizer consolidates an active memory into the shortterm tier (without an
        LLM, the deterministic consolidation)."""
        return _agent_run("memorizer", _arguments(locals(), "timeout"), timeout)

    @endpoint
    def run_retriever(self, query: str, *, timeout: float = AGENT_TIMEOUT) -> Call[t.AgentRun]:
        """The retrieve agent answers ``query`` from the tiers, citing ``memories_used``."""
        return _agent_run("retriever", _arguments(locals(), "timeout"), timeout)

    @endpoint
    def agent_runs(
        self,
        *,
        agent: Literal["updater", "memorizer", "retriever"] | None = None,
        page: int | None = None,
        page_size: int | None = None,
    ) -> Call[t.Page[t.AgentRun]]:
        """The worker's agent runs, newest first."""
        return Call("GET", "agents/runs", params=_arguments(locals()))

    @endpoint
    def get_agent_run(self, run_id: int) -> Call[t.AgentRun]:
        return Call("GET", f"agents/runs/{run_id}")


def _agent_run(agent: str, body: dict[str, Any], timeout: float) -> Call[t.AgentRun]:
    """Not replayed by the server: a repeat would run the agent again."""
    return Call("POST", f"agents/{agent}", body, write=True, once=True, timeout=timeout)


def _chunks(chunks: Sequence[t.ChunkInput | str]) -> list[t.ChunkInput]:
    return [{"content": chunk} if isinstance(chunk, str) else chunk for chunk in chunks]


class _Client(_Endpoints):
    def __init__(
        self,
        base_url: str,
        token: str,
        worker_id: int | None = None,
        *,
        timeout: float = 30.0,
        retries: int = 3,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None = None,
    ):
        retry = RetryPolicy(retries=retries, backoff=backoff, max_backoff=max_backoff)
        self._exchange = Exchange(base_url, token, worker_id, retry)
        self._http = self._open(
            base_url=self._exchange.api_url,
            headers=self._exchange.headers,
            timeout=timeout,
            transport=transport,
        )

    def _open(self, **options: Any) -> Any:
        """The httpx client, sync or async."""
        raise NotImplementedError

    def _send(self, call: Call[Any]) -> Any:
        """Make the call: its answer, or an awaitable of it."""
        raise NotImplementedError

    @property
    def worker_id(self) -> int | None:
        """The worker the methods act on: given, or the token's (read on first use)."""
        return self._exchange.worker_id


class MemoryHub(_Client):
    """The MemoryHub API, synchronously.

    ``MemoryHub("http://localhost:8000", token)`` acts on the token's worker;
    ``worker_id=`` picks one for a staff token. ``retries`` retries after a connection
    error, a timeout, a 5xx or a 429 (see :class:`RetryPolicy`); a retried write sends the
    same ``Idempotency-Key``. Errors raise :class:`MemoryHubError`. Use it as a context
    manager, or call :meth:`close`. ``transport`` is passed to ``httpx.Client``.
    """

    _http: httpx.Client

    def _open(self, **options: Any) -> httpx.Client:
        return httpx.Client(**options)

    def _send(self, call: Call[T]) -> T:
        steps = self._exchange.steps(self._http, call)
        outcome: Outcome = None
        while True:
            try:
                step = steps.send(outcome)
            except StopIteration as done:
                answer: T = done.value
                return answer
            if isinstance(step, httpx.Request):
                try:
                    outcome = self._http.send(step)
                except httpx.TransportError as error:
                    outcome = error
            else:
                time.sleep(step)
                outcome = None

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "MemoryHub":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class AsyncMemoryHub(_Client):
    """:class:`MemoryHub` for asyncio: the same methods, awaited; ``transport`` is passed
    to ``httpx.AsyncClient``."""

    _http: httpx.AsyncClient

    def _open(self, **options: Any) -> httpx.AsyncClient:
        return httpx.AsyncClient(**options)

    async def _send(self, call: Call[T]) -> T:
        steps = self._exchange.steps(self._http, call)
        outcome: Outcome = None
        while True:
            try:
                step = steps.send(outcome)
            except StopIteration as done:
                answer: T = done.value
                return answer
            if isinstance(step, httpx.Request):
                try:
                    outcome = await self._http.send(step)
                except httpx.TransportError as error:
                    outcome = error
            else:
                await asyncio.sleep(step)
                outcome = None

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> "AsyncMemoryHub":
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
