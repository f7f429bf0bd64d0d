"""The tool registry as a Model Context Protocol server (the ``mcp`` SDK's low-level
``Server``): ``tools/list`` gives every tool with its generated JSON Schema, ``tools/call``
runs ``call_tool``. A ``DomainError`` becomes a tool error result (``isError``) carrying
``{"error", "detail", "fields"}``, so the model sees what to fix; nothing crashes the
server.

Two transports (``manage.py mcp_server``):

- stdio: one worker, fixed by ``--worker``;
- streamable HTTP: every request carries ``Authorization: Token <key>`` of a worker
  token (``Bearer <key>`` works too); none, an unknown or revoked key, or a staff token is
  a 401. The tools act on that token's worker.

The ORM is synchronous: each call runs in Django's one sync thread
(``sync_to_async(thread_sensitive=True)``), with stale connections closed around it as a
request would.
"""

import json
import logging
from typing import Any

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from mcp import types
from mcp.server import Server

from agents.tools import call_tool, json_schema, tool_list
from memoryhub.errors import DomainError
from memoryhub.models import Worker
from memoryhub.selectors.workers import token_authenticate

logger = logging.getLogger(__name__)

SERVER_NAME = "memoryhub"
INSTRUCTIONS = (
    "MemoryHub: three tiers of memory for one agent. Active memory is the working memory of "
    "the current tasks, shortterm memory holds recent work as searchable chunks with an "
    "entity graph, longterm memory holds consolidated knowledge. Start with retrieve (or "
    "list_active_memories / list_shortterm_memories and the search tools); write with "
    "create_active_memory / update_active_memory."
)
WORKER_STATE_KEY = "memoryhub_worker_id"


def mcp_tools() -> list[types.Tool]:
    return [
        types.Tool(
            name=tool.name,
            description=tool.description,
            input_schema=json_schema(tool.serializer),
            annotations=types.ToolAnnotations(
                read_only_hint=not tool.writes,
                destructive_hint=False,
                open_world_hint=False,
            ),
        )
        for tool in tool_list()
    ]


def _call_in_django(worker_id: int, name: str, arguments: dict | None) -> Any:
    close_old_connections()
    try:
        worker = Worker.objects.get(pk=worker_id)
        return call_tool(worker=worker, name=name, arguments=arguments or {})
    finally:
        close_old_connections()


def _text_result(data, *, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=json.dumps(data, ensure_ascii=False))],
        structured_content=data if isinstance(data, dict) else {"result": data},
        is_error=is_error,
    )


async def run_tool(worker_id: int, name: str, arguments: dict | None) -> types.CallToolResult:
    """One tool call as an MCP result: the tool's JSON, or an error result."""
    try:
        result = await sync_to_async(_call_in_django, thread_sensitive=True)(
            worker_id, name, arguments
        )
    except DomainError as exc:
        body = {"error": exc.code, "detail": exc.detail, "fields": exc.fields}
        return _text_result(body, is_error=True)
    except Exception:
        logger.exception("MCP tool %s failed", name)
        body = {"error": "server_error", "detail": f"{name} failed on the server", "fields": {}}
        return _text_result(body, is_error=True)
    return _text_result(result)


def build_server(*, worker_id: int | None = None) -> Server:
    """The MCP server. With ``worker_id`` (stdio) every call acts on that worker; without
    it (HTTP), on the worker ``TokenAuthMiddleware`` authenticated for the request."""
    tools = mcp_tools()

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        acting = worker_id
        if acting is None:
            request = ctx.request
            acting = getattr(request, "scope", {}).get("state", {}).get(WORKER_STATE_KEY)
        if acting is None:  # the middleware refuses such requests; never act on no one
            body = {"error": "not_authenticated", "detail": "no worker token", "fields": {}}
            return _text_result(body, is_error=True)
        return await run_tool(acting, params.name, params.arguments)

    return Server(
        SERVER_NAME,
        version="1",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call,
    )


def _authenticate(header: str) -> int | None:
    """The worker id of ``Token <key>`` / ``Bearer <key>`` of a live worker token."""
    parts = header.split()
    if len(parts) != 2 or parts[0].lower() not in ("token", "bearer"):
        return None
    close_old_connections()
    try:
        token = token_authenticate(key=parts[1])
        if token is None or token.worker_id is None:
            return None  # unknown, revoked, or a staff token (it has no worker to act on)
        return token.worker_id
    finally:
        close_old_connections()


class TokenAuthMiddleware:
    """ASGI: every HTTP request needs a worker token; its worker goes in the request state."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        header = ""
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                header = value.decode("latin-1")
        worker_id = await sync_to_async(_authenticate, thread_sensitive=True)(header)
        if worker_id is None:
            body = json.dumps(
                {
                    "error": "not_authenticated",
                    "detail": "send Authorization: Token <key> of a worker token",
                    "fields": {},
                }
            ).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"www-authenticate", b"Token"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        scope.setdefault("state", {})[WORKER_STATE_KEY] = worker_id
        return await self.app(scope, receive, send)


def http_app(*, host: str = "127.0.0.1", path: str = "/mcp"):
    """The streamable HTTP ASGI app (with its lifespan), behind the token check."""
    server = build_server()
    return TokenAuthMiddleware(server.streamable_http_app(streamable_http_path=path, host=host))


async def serve_stdio(*, worker_id: int) -> None:
    from mcp.server.stdio import stdio_server

    server = build_server(worker_id=worker_id)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
