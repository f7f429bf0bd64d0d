"""``manage.py mcp_server``: the tool registry as an MCP server, over stdio for one worker
or over streamable HTTP for the worker of each request's token."""

import asyncio
import logging

from django.core.management.base import BaseCommand, CommandError

from agents.mcp_server import http_app, serve_stdio
from memoryhub.models import Worker


class Command(BaseCommand):
    help = (
        "Serve the memory tools over MCP: stdio (--worker NAME) or streamable HTTP "
        "(--transport http; each request needs Authorization: Token <worker key>)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
        parser.add_argument("--worker", help="stdio: the worker (name or id) the tools act on")
        parser.add_argument("--host", default="127.0.0.1", help="http: the address to bind")
        parser.add_argument("--port", type=int, default=8765, help="http: the port")
        parser.add_argument("--path", default="/mcp", help="http: the endpoint's path")

    def handle(self, *args, **options):
        # Logs go to stderr (stdout carries the stdio protocol); the SDK's per-request
        # lines only at warning level.
        for name in ("mcp", "httpx2"):
            logging.getLogger(name).setLevel(logging.WARNING)
        if options["transport"] == "stdio":
            worker = self._worker(options["worker"])
            asyncio.run(serve_stdio(worker_id=worker.pk))
            return
        if options["worker"]:
            raise CommandError("--worker is for stdio; over HTTP the token names the worker")
        import uvicorn

        self.stderr.write(
            f"MCP over streamable HTTP at http://{options['host']}:{options['port']}"
            f"{options['path']} (Authorization: Token <worker key>)"
        )
        uvicorn.run(
            http_app(host=options["host"], path=options["path"]),
            host=options["host"],
            port=options["port"],
            log_level="warning",
            lifespan="on",
        )

    @staticmethod
    def _worker(value: str | None) -> Worker:
        if not value:
            raise CommandError("give --worker NAME (the worker the tools act on) for stdio")
        worker = Worker.objects.filter(name=value).first()
        if worker is None and value.isdigit():
            worker = Worker.objects.filter(pk=int(value)).first()
        if worker is None:
            raise CommandError(f"--worker: no worker named {value!r}")
        return worker
