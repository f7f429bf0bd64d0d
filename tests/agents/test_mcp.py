"""The MCP server (``manage.py mcp_server``) driven by the SDK's own clients: a subprocess
over stdio for one worker, and over streamable HTTP with worker tokens, both on the test
database."""

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import httpx2
import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from agents.tools import tool_list
from memoryhub.services.workers import token_issue
from tests.factories import StaffFactory, WorkerFactory
from tiers.models import ShorttermMemory

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _server_env() -> dict[str, str]:
    """This process's settings, pointed at the test database (the subprocess must see
    what the test committed)."""
    db = connection.settings_dict
    host = quote(db["HOST"] or "", safe="")
    url = f"postgres://{db['USER']}@{host}:{db['PORT']}/{db['NAME']}"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"MEMORYHUB_DATA_DIR", "MEMORYHUB_EMBEDDED_CLEANUP"}
    }
    return env | {"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "memoryhub.settings_test"}


def _text(result) -> dict:
    return json.loads(result.content[0].text)


# --- stdio ---------------------------------------------------------------------------------


async def _stdio_session_run(worker_name: str, steps):
    params = StdioServerParameters(
        command=sys.executable,
        args=["manage.py", "mcp_server", "--worker", worker_name],
        env=_server_env(),
        cwd=str(ROOT),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return await steps(session)


def test_stdio_lists_the_tools_and_calls_them_for_the_named_worker(db):
    """One server process for the whole conversation (a Django start costs seconds)."""
    worker = WorkerFactory(name="mcp-agent")
    other = WorkerFactory(name="someone-else")
    theirs = ShorttermMemory.objects.create(worker=other, title="Theirs")

    async def steps(session):
        listed = await session.list_tools()
        created = await session.call_tool(
            "create_shortterm_memory",
            {"title": "Deploys", "content": "The ledger-api deploys to fra1 every Friday."},
        )
        found = await session.call_tool(
            "search_shortterm_memory",
            {
                "search_queries": [
                    {"shortterm_memory_id": _text(created)["id"], "search_content": "Friday"}
                ]
            },
        )
        refused = await session.call_tool(
            "search_longterm_memory", {"search_content": "x", "confidence_threshold": 3}
        )
        unknown = await session.call_tool("update_shortterm_memory", {"shortterm_memory_idd": 1})
        not_mine = await session.call_tool(
            "update_shortterm_memory", {"shortterm_memory_id": theirs.pk, "title": "Mine"}
        )
        return listed, created, found, refused, unknown, not_mine

    listed, created, found, refused, unknown, not_mine = asyncio.run(
        _stdio_session_run(worker.name, steps)
    )

    tools = {tool.name: tool for tool in listed.tools}
    assert set(tools) == {tool.name for tool in tool_list()}
    schema = tools["search_longterm_memory"].input_schema
    assert schema["required"] == ["search_content"]
    assert tools["search_shortterm_memory"].annotations.read_only_hint is True
    assert tools["create_shortterm_memory"].annotations.read_only_hint is False

    assert not created.is_error
    memory = ShorttermMemory.objects.get(pk=_text(created)["id"])
    assert memory.worker == worker and memory.worker != other
    assert not found.is_error
    group = found.structured_content["results"][0]
    assert group["shortterm_memory_id"] == memory.pk
    assert "Friday" in group["results"][0]["content"]

    assert refused.is_error
    body = _text(refused)
    assert body["error"] == "validation_error"
    assert "confidence_threshold" in body["fields"] and body["detail"]
    assert unknown.is_error and "shortterm_memory_idd" in _text(unknown)["fields"]
    assert not_mine.is_error and _text(not_mine)["error"] == "not_found"
    assert ShorttermMemory.objects.get(pk=theirs.pk).title == "Theirs"


def test_stdio_needs_a_known_worker(db):
    with pytest.raises(CommandError, match="no worker named 'nobody'"):
        call_command("mcp_server", "--worker", "nobody")
    with pytest.raises(CommandError, match="--worker"):
        call_command("mcp_server")


# --- streamable HTTP -----------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def _http_server():
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "mcp_server", "--transport", "http", "--port", str(port)],
        cwd=ROOT,
        env=_server_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.time() + 60
        while True:
            assert process.poll() is None, process.stdout.read()
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert time.time() < deadline, "the MCP server did not start"
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def _http_session_run(url: str, key: str | None, steps):
    headers = {"Authorization": f"Token {key}"} if key else {}
    async with (
        create_mcp_http_client(headers=headers) as client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        return await steps(session)


def test_http_acts_for_the_tokens_worker_and_refuses_requests_without_one(db):
    worker = WorkerFactory(name="http-agent")
    other = WorkerFactory(name="http-other")
    _, key = token_issue(worker=worker, name="mcp")
    _, other_key = token_issue(worker=other, name="mcp")
    _, staff_key = token_issue(user=StaffFactory(username="admin"), name="staff")

    async def create(session):
        return await session.call_tool(
            "create_shortterm_memory", {"title": "Runbook", "content": "Restart with make q."}
        )

    async def search(session):
        listed = await session.list_tools()
        found = await session.call_tool(
            "retrieve", {"query": "restart runbook", "tiers": ["shortterm"]}
        )
        return listed, found

    with _http_server() as url:
        created = asyncio.run(_http_session_run(url, key, create))
        listed, mine = asyncio.run(_http_session_run(url, key, search))
        _, theirs = asyncio.run(_http_session_run(url, other_key, search))

        for headers in (
            {},
            {"Authorization": "Token wrong"},
            {"Authorization": f"Token {staff_key}"},
        ):
            response = httpx2.post(
                url,
                headers=headers
                | {
                    "Accept": "application/json, text/event-stream",
                    "Content-Type": "application/json",
                },
                content=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
            )
            assert response.status_code == 401, response.text
            assert response.json()["error"] == "not_authenticated"
        with pytest.raises(Exception):  # noqa: B017 - the SDK's client gives up on the 401
            asyncio.run(_http_session_run(url, None, search))

    assert not created.is_error
    memory = ShorttermMemory.objects.get(pk=_text(created)["id"])
    assert memory.worker == worker
    assert {tool.name for tool in listed.tools} == {tool.name for tool in tool_list()}
    assert [hit["memory_id"] for hit in _text(mine)["results"]["shortterm"]] == [memory.pk]
    assert _text(theirs)["results"]["shortterm"] == []  # another worker's token sees nothing
