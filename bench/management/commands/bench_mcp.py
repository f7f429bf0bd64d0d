"""Benchmark the MCP server: the round trip of a tool call (client → ``manage.py
mcp_server`` → ``call_tool`` → answer) over stdio and over streamable HTTP, for
``search_shortterm_memory`` and ``retrieve`` on a worker with some memories, beside the
same calls made in-process (what the protocol and the transport add)."""

import asyncio
import json
import logging
import os
import socket
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection

from agents.tools import call_tool
from bench.corpus import generate_chunks, generate_queries
from bench.measure import BenchCommand, fmt, percentiles
from memoryhub.models import Worker
from memoryhub.providers.embeddings import HashEmbeddings
from memoryhub.services.workers import token_issue, worker_create, worker_delete
from tiers.services.shortterm import shortterm_memory_create

ROOT = Path(settings.BASE_DIR)
TOOLS = ("search_shortterm_memory", "retrieve")
WORKER_NAME = "bench-mcp"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Command(BenchCommand):
    help = (
        "Benchmark MCP tool calls: p50/p95 round trip of search_shortterm_memory and "
        "retrieve over stdio and streamable HTTP, and the same calls in-process."
    )

    def add_arguments(self, parser):
        parser.add_argument("--memories", type=int, default=200)
        parser.add_argument("--chunks-per-memory", type=int, default=5)
        parser.add_argument("--calls", type=int, default=100, help="timed calls per tool")
        parser.add_argument(
            "--embedder",
            choices=("configured", "hash"),
            default="configured",
            help="embeddings of the memories and the queries (hash: instant, for a quick run)",
        )
        parser.add_argument("--transports", default="stdio,http")
        parser.add_argument("--keep", action="store_true", help="keep the bench worker")
        parser.add_argument("--json", help="also write the figures to this file")

    def handle(self, *args, **options):
        for name in ("mcp", "httpx2"):  # the SDK's client logs every request at INFO
            logging.getLogger(name).setLevel(logging.WARNING)
        transports = [t.strip() for t in options["transports"].split(",") if t.strip()]
        if not set(transports) <= {"stdio", "http"}:
            raise CommandError("--transports: stdio and/or http")
        hash_embedder = options["embedder"] == "hash"
        worker, queries = self._worker(options, hash_embedder)
        figures: dict = {
            "machine": {"cpus": os.cpu_count()},
            "memories": options["memories"],
            "chunks": options["memories"] * options["chunks_per_memory"],
            "embedder": "hash" if hash_embedder else settings.MEMORYHUB_EMBEDDINGS["provider"],
        }
        try:
            figures["in_process"] = self._in_process(worker, queries, options["calls"])
            env = self._server_env(hash_embedder)
            _, key = token_issue(worker=worker, name="bench_mcp")
            for transport in transports:
                figures[transport] = asyncio.run(
                    self._over_mcp(transport, worker, key, queries, options["calls"], env)
                )
        finally:
            if not options["keep"]:
                worker_delete(worker=worker)
        if options["json"]:
            with open(options["json"], "w") as handle:
                json.dump(figures, handle, indent=2)

    # --- setup -----------------------------------------------------------------------

    def _worker(self, options, hash_embedder: bool) -> tuple[Worker, list[str]]:
        existing = Worker.objects.filter(name=WORKER_NAME).first()
        if existing is not None:
            worker_delete(worker=existing)
        worker = worker_create(name=WORKER_NAME, description="bench_mcp")
        per = options["chunks_per_memory"]
        texts = generate_chunks(options["memories"] * per, seed=23)
        embedder = (
            HashEmbeddings(settings.MEMORYHUB_EMBEDDINGS["dimension"]) if hash_embedder else None
        )
        started = time.perf_counter()
        for index in range(options["memories"]):
            pieces = texts[index * per : (index + 1) * per]
            shortterm_memory_create(
                worker=worker,
                title=pieces[0][:60],
                chunks=[{"content": text} for text in pieces],
                embedder=embedder,
            )
        self.log(
            f"{options['memories']} memories, {len(texts)} chunks stored in "
            f"{time.perf_counter() - started:.1f} s"
        )
        return worker, generate_queries(texts, max(options["calls"], 10), seed=5)

    @staticmethod
    def _server_env(hash_embedder: bool) -> dict[str, str]:
        """The server processes use this database (the embedded one included)."""
        db = connection.settings_dict
        host = quote(db["HOST"] or "", safe="")
        password = f":{quote(db['PASSWORD'], safe='')}" if db.get("PASSWORD") else ""
        url = f"postgres://{quote(db['USER'] or '', safe='')}{password}@{host}"
        url += f":{db['PORT']}/{db['NAME']}" if db.get("PORT") else f"/{db['NAME']}"
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"MEMORYHUB_DATA_DIR", "MEMORYHUB_EMBEDDED_CLEANUP"}
        }
        env |= {
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": os.environ.get(
                "DJANGO_SETTINGS_MODULE", "memoryhub.settings"
            ),
        }
        if hash_embedder:
            env["MEMORYHUB_EMBEDDINGS"] = "hash"
        return env

    @staticmethod
    def _arguments(tool: str, query: str) -> dict:
        if tool == "search_shortterm_memory":
            return {"query": query, "limit": 10}
        return {"query": query, "tiers": ["active", "shortterm"], "limit": 10}

    # --- timings ---------------------------------------------------------------------

    def _in_process(self, worker, queries, calls: int) -> dict:
        figures = {}
        for tool in TOOLS:
            for query in queries[:3]:  # warm the model, the caches and the connections
                call_tool(worker=worker, name=tool, arguments=self._arguments(tool, query))
            samples = []
            for index in range(calls):
                query = queries[index % len(queries)]
                started = time.perf_counter()
                call_tool(worker=worker, name=tool, arguments=self._arguments(tool, query))
                samples.append((time.perf_counter() - started) * 1000)
            figures[tool] = percentiles(samples)
            self.log(f"in-process  {tool:<24} {fmt(figures[tool])}")
        return figures

    async def _over_mcp(self, transport, worker, key, queries, calls: int, env) -> dict:
        figures = {}
        async with self._session(transport, worker, key, env) as session:
            for tool in TOOLS:
                for query in queries[:3]:
                    await session.call_tool(tool, self._arguments(tool, query))
                samples = []
                for index in range(calls):
                    query = queries[index % len(queries)]
                    started = time.perf_counter()
                    result = await session.call_tool(tool, self._arguments(tool, query))
                    samples.append((time.perf_counter() - started) * 1000)
                    if result.is_error:
                        raise CommandError(f"{tool} failed over {transport}: {result.content}")
                figures[tool] = percentiles(samples)
                self.log(f"{transport:<11} {tool:<24} {fmt(figures[tool])}")
        return figures

    @asynccontextmanager
    async def _session(self, transport, worker, key: str, env):
        from mcp import ClientSession, StdioServerParameters, stdio_client

        if transport == "stdio":
            params = StdioServerParameters(
                command=sys.executable,
                args=["manage.py", "mcp_server", "--worker", worker.name],
                env=env,
                cwd=str(ROOT),
            )
            async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
                await s.initialize()
                yield s
            return
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        port = _free_port()
        process = subprocess.Popen(
            [sys.executable, "manage.py", "mcp_server", "--transport", "http", "--port", str(port)],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        try:
            await self._wait_for(port, process)
            async with (
                create_mcp_http_client(headers={"Authorization": f"Token {key}"}) as client,
                streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=client) as (
                    read,
                    write,
                ),
                ClientSession(read, write) as s,
            ):
                await s.initialize()
                yield s
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    @staticmethod
    async def _wait_for(port: int, process) -> None:
        deadline = time.time() + 120
        while True:
            if process.poll() is not None:
                raise CommandError("the MCP HTTP server exited")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return
            except OSError:
                if time.time() > deadline:
                    raise CommandError("the MCP HTTP server did not start") from None
                await asyncio.sleep(0.2)
