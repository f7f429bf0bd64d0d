"""Load test: N simulated agents against the served app (gunicorn + the task cluster).

Creates N workers, each with a token, an active memory and a few shortterm memories,
starts ``manage.py serve`` on a free loopback port (DEBUG off, no write rate limit) with
its qcluster running the sweeps, then runs one asyncio agent per worker for
``--duration`` seconds with the mixed workload (section updates 50 %, searches 30 %,
memory creation 15 %, context building 5 %): each agent in a closed loop, or paced to
``--rate`` requests/s in all. Reports the sustained requests/s, p50/p95/p99 per
endpoint, the errors (any non-2xx or exception), then checks that every acknowledged
write is in the database. Loopback only; it stops by itself.

Run it on a data directory of its own, e.g. ``MEMORYHUB_DATA_DIR=/tmp/mh-load``.
"""

import asyncio
import json
import logging
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import numpy as np
from django.conf import settings
from django.core.management.base import CommandError

from bench.measure import BenchCommand, _free_port
from consolidation.models import ConsolidationRun
from memoryhub.models import Worker
from memoryhub.services.workers import token_issue, worker_create, worker_delete
from tiers.models import ActiveMemory, ShorttermMemory
from tiers.services.active import active_memory_create
from tiers.services.shortterm import shortterm_memory_create

ROOT = Path(settings.BASE_DIR)
TEMPLATE = """\
template:
  id: agent_task
  name: Agent task
  version: "1.0"
sections:
  - id: objective
    name: Objective
    required: true
  - id: progress
    name: Progress
  - id: notes
    name: Notes
"""
UPDATED_SECTIONS = ("progress", "notes")
MIX = (("update_section", 50), ("search", 30), ("create_memory", 15), ("context", 5))
TOPICS = (
    "the billing service deploy",
    "the Postgres failover drill",
    "the on-call rotation for the payments team",
    "the flaky integration test in the checkout pipeline",
    "the migration of the search index to HNSW",
    "the customer escalation about late invoices",
    "the Kafka consumer lag on the events topic",
    "the quarterly capacity review",
)
FACTS = (
    "Alice Novak owns it and reviews every change on Tuesdays.",
    "The rollback plan is documented in the runbook under section 4.",
    "It was blocked by a missing index on the orders table.",
    "Ben Carter confirmed the fix on staging at 14:00 UTC.",
    "The error rate dropped from 2.1% to 0.3% after the patch.",
    "The next step is to rerun the load test with three web workers.",
    "Latency p95 must stay under 250 ms for the agents' calls.",
    "The team agreed to freeze deploys until Friday.",
)


def _text(rng: random.Random, sentences: int) -> str:
    topic = rng.choice(TOPICS)
    return f"Notes on {topic}. " + " ".join(rng.choice(FACTS) for _ in range(sentences))


def _query(rng: random.Random) -> str:
    """Mostly unique (the query embedding cache would otherwise answer most searches)."""
    fact = rng.choice(FACTS).split()
    start = rng.randrange(len(fact) - 3)
    return f"{rng.choice(TOPICS)} {' '.join(fact[start : start + 4])} {rng.randrange(10**6)}"


@dataclass
class Agent:
    index: int
    worker_id: int
    token: str
    memory_id: int
    # Acknowledged writes: section -> (count, last content); created memory ids.
    section_acks: dict = field(default_factory=lambda: defaultdict(int))
    section_last: dict = field(default_factory=dict)
    created: list = field(default_factory=list)
    gave_up: int = 0  # memory creations without an answer (timeout, connection lost)


@dataclass
class Sample:
    endpoint: str
    started: float
    ms: float
    ok: bool
    status: int | str


class Command(BenchCommand):
    help = (
        "Load test: N agents (section updates, searches, memory creation, context) against "
        "gunicorn + the task cluster; requests/s, p50/p95/p99 per endpoint, errors, and a "
        "check that every acknowledged write is stored."
    )

    def add_arguments(self, parser):
        parser.add_argument("--agents", type=int, default=50)
        parser.add_argument("--duration", type=float, default=60.0, help="seconds of load")
        parser.add_argument("--warmup", type=float, default=5.0, help="seconds not counted")
        parser.add_argument(
            "--rate", type=float, default=None, help="open loop: requests/s in all (paced)"
        )
        parser.add_argument("--web-workers", type=int, default=3)
        parser.add_argument(
            "--web-threads", type=int, default=None, help="threads per web worker (serve's default)"
        )
        parser.add_argument("--q-workers", type=int, default=None, help="qcluster workers")
        parser.add_argument("--no-cluster", action="store_true", help="no qcluster beside")
        parser.add_argument("--seed-memories", type=int, default=3, help="per worker")
        parser.add_argument("--timeout", type=float, default=30.0, help="per request, seconds")
        parser.add_argument("--keep", action="store_true", help="keep the load workers")
        parser.add_argument("--json", help="also write the figures to this file")
        parser.add_argument("--server-log", help="gunicorn/qcluster output (default: a tmp file)")
        parser.add_argument("--seed", type=int, default=17)

    def handle(self, *args, **options):
        logging.getLogger("httpx").setLevel(logging.WARNING)
        if options["agents"] < 1 or options["duration"] <= 0:
            raise CommandError("--agents and --duration must be positive")
        stamp = time.strftime("%H%M%S")
        self.log(f"Creating {options['agents']} workers (tokens, active memory, memories)...")
        agents = self._agents(stamp, options)
        try:
            with self._served(options) as base:
                samples, elapsed = asyncio.run(self._load(base, agents, options))
            figures = self._figures(samples, elapsed, options)
            self._report(figures)
            figures["count_check"] = self._count_check(agents)
            self._report_check(figures["count_check"])
            if options["json"]:
                Path(options["json"]).write_text(json.dumps(figures, indent=2))
        finally:
            if not options["keep"]:
                for agent in agents:
                    worker = Worker.objects.filter(pk=agent.worker_id).first()
                    if worker is not None:
                        worker_delete(worker=worker)
        if figures["errors"]["count"] or not figures["count_check"]["ok"]:
            raise CommandError("errors or missing writes: see above")

    # --- setup ----------------------------------------------------------------------
    def _agents(self, stamp: str, options) -> list[Agent]:
        rng = random.Random(options["seed"])
        agents = []
        for index in range(options["agents"]):
            worker = worker_create(name=f"load-{stamp}-{index:03d}")
            _, key = token_issue(worker=worker, name="bench_load")
            memory = active_memory_create(
                worker=worker,
                title=f"Agent {index} task",
                template_yaml=TEMPLATE,
                initial_sections={"objective": f"Keep {rng.choice(TOPICS)} on track"},
            )
            for n in range(options["seed_memories"]):
                shortterm_memory_create(
                    worker=worker, title=f"Seed note {n}", content=_text(rng, 4)
                )
            agents.append(Agent(index, worker.pk, key, memory.pk))
        return agents

    def _served(self, options):
        from contextlib import contextmanager

        @contextmanager
        def served():
            port = _free_port()
            env = dict(
                os.environ,
                DJANGO_SETTINGS_MODULE="memoryhub.settings",
                DEBUG="false",
                MEMORYHUB_API_WRITE_RATE="",
                MEMORYHUB_ADMIN_PASSWORD=os.environ.get("MEMORYHUB_ADMIN_PASSWORD", ""),
            )
            if options["q_workers"]:
                env["MEMORYHUB_Q_WORKERS"] = str(options["q_workers"])
            command = [
                sys.executable,
                str(ROOT / "manage.py"),
                "serve",
                "--bind",
                f"127.0.0.1:{port}",
                "--web-workers",
                str(options["web_workers"]),
            ]
            if options["web_threads"]:
                command += ["--web-threads", str(options["web_threads"])]
            if options["no_cluster"]:
                command.append("--no-cluster")
            log_path = Path(options["server_log"] or f"/tmp/bench_load-{port}.log")
            log = log_path.open("w")
            self.log(f"Serving: {' '.join(command[1:])}  (output: {log_path})")
            process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
            base = f"http://127.0.0.1:{port}"
            try:
                self._wait_ready(base, process, cluster=not options["no_cluster"])
                yield base
            finally:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
                log.close()

        return served()

    def _wait_ready(self, base: str, process, *, cluster: bool) -> None:
        deadline = time.time() + 180
        while time.time() < deadline:
            if process.poll() is not None:
                raise CommandError(f"manage.py serve exited with {process.returncode}")
            try:
                with urllib.request.urlopen(f"{base}/api/v1/health", timeout=5) as response:
                    health = json.loads(response.read())
                if not cluster or health["queue"].get("cluster_running"):
                    return
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.5)
        raise CommandError("the server did not become ready in 180 s")

    # --- load -----------------------------------------------------------------------
    async def _load(self, base: str, agents: list[Agent], options) -> tuple[list[Sample], float]:
        samples: list[Sample] = []
        limits = httpx.Limits(max_connections=len(agents), max_keepalive_connections=len(agents))
        timeout = httpx.Timeout(options["timeout"])
        warmup, duration = options["warmup"], options["duration"]
        interval = len(agents) / options["rate"] if options["rate"] else 0.0
        async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as client:
            # Warm every web process: the embedding model and the extractor load on first use.
            warm = agents[: 4 * options["web_workers"]]
            self.log(f"Warming up the web processes ({len(warm)} calls of each kind)...")
            for kind, _ in MIX:
                await asyncio.gather(*(self._one(client, a, kind, random.Random()) for a in warm))
            started = time.perf_counter()
            measure_from = started + warmup
            stop_at = measure_from + duration

            async def run(agent: Agent):
                rng = random.Random(options["seed"] * 1000 + agent.index)
                next_at = time.perf_counter() + rng.random() * (interval or 0.05)
                while True:
                    if interval:
                        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                        next_at += interval
                    now = time.perf_counter()
                    if now >= stop_at:
                        return
                    kind = rng.choices([k for k, _ in MIX], weights=[w for _, w in MIX])[0]
                    sample = await self._one(client, agent, kind, rng)
                    if sample.started >= measure_from:
                        samples.append(sample)

            async def progress():
                last = 0
                while time.perf_counter() < stop_at:
                    await asyncio.sleep(5)
                    now = time.perf_counter()
                    window, last = samples[last:], len(samples)  # answered in these 5 s
                    if now < measure_from:
                        self.log(f"  warming up ({now - started:4.0f} s)")
                        continue
                    errors = sum(not s.ok for s in samples)
                    p95 = np.percentile([s.ms for s in window], 95) if window else float("nan")
                    self.log(
                        f"  {now - measure_from:5.0f} s  {len(window) / 5:6.1f} req/s  "
                        f"p95 {p95:7.1f} ms  requests {len(samples)}  errors {errors}"
                    )

            self.log(
                f"Load: {len(agents)} agents, {duration:.0f} s after {warmup:.0f} s warm-up, "
                + (f"open loop at {options['rate']:.0f} req/s" if interval else "closed loop")
            )
            await asyncio.gather(progress(), *(run(a) for a in agents))
        return samples, duration

    async def _one(self, client: httpx.AsyncClient, agent: Agent, kind: str, rng) -> Sample:
        prefix = f"/api/v1/workers/{agent.worker_id}"
        headers = {"Authorization": f"Token {agent.token}"}
        section = content = None
        if kind == "update_section":
            section = rng.choice(UPDATED_SECTIONS)
            content = f"Step {agent.section_acks.get(section, 0) + 1}: {_text(rng, 2)}"
            method, path = "PATCH", f"{prefix}/active/{agent.memory_id}/sections"
            body = {"sections": {section: content}}
        elif kind == "search":
            method, path, body = "POST", f"{prefix}/search/shortterm", {"query": _query(rng)}
        elif kind == "create_memory":
            body = {"title": f"Load note {agent.index}", "content": _text(rng, 3)}
            method, path = "POST", f"{prefix}/shortterm/"
        else:
            method, path, body = "POST", f"{prefix}/context", {"query": _query(rng)}
        started = time.perf_counter()
        try:
            response = await client.request(method, path, json=body, headers=headers)
            status: int | str = response.status_code
            ok = 200 <= response.status_code < 300
        except httpx.HTTPError as exc:
            status, ok = type(exc).__name__, False
            agent.gave_up += kind == "create_memory"
        ms = (time.perf_counter() - started) * 1000
        if ok and kind == "update_section":
            agent.section_acks[section] += 1
            agent.section_last[section] = content
        elif ok and kind == "create_memory":
            agent.created.append(response.json()["id"])
        return Sample(kind, started, ms, ok, status)

    # --- figures --------------------------------------------------------------------
    def _figures(self, samples: list[Sample], elapsed: float, options) -> dict:
        def stats(ms: list[float]) -> dict:
            data = np.asarray(ms) if ms else np.asarray([np.nan])
            return {
                "n": len(ms),
                "p50": round(float(np.percentile(data, 50)), 1),
                "p95": round(float(np.percentile(data, 95)), 1),
                "p99": round(float(np.percentile(data, 99)), 1),
            }

        errors = [s for s in samples if not s.ok]
        statuses: dict[str, int] = defaultdict(int)
        for s in errors:
            statuses[f"{s.endpoint} {s.status}"] += 1
        return {
            "machine": {"cpus": os.cpu_count(), "load_average": os.getloadavg()},
            "options": {
                k: options[k]
                for k in ("agents", "duration", "rate", "web_workers", "web_threads", "q_workers")
            },
            "embedder": settings.MEMORYHUB_EMBEDDINGS["provider"],
            "requests": len(samples),
            "requests_per_s": round(len(samples) / elapsed, 1),
            "all": stats([s.ms for s in samples]),
            "endpoints": {
                kind: stats([s.ms for s in samples if s.endpoint == kind]) for kind, _ in MIX
            },
            "errors": {
                "count": len(errors),
                "rate": round(len(errors) / max(1, len(samples)), 4),
                "by_status": dict(statuses),
            },
        }

    def _count_check(self, agents: list[Agent]) -> dict:
        """Every acknowledged write is stored: each created memory exists once, and each
        updated section holds its last acknowledged content with a count that adds up
        (equal to the acknowledged updates unless a migration consumed them meanwhile)."""
        migrated: set[tuple[int, str]] = set()
        worker_ids = [a.worker_id for a in agents]
        for run in ConsolidationRun.objects.filter(worker_id__in=worker_ids):
            for outcome in run.outcomes:
                if outcome.get("outcome") in ("created", "merged", "conflict"):
                    migrated.add((outcome["active_memory_id"], outcome["section_id"]))
        problems: list[str] = []
        acked_created = acked_updates = unacknowledged = 0
        for agent in agents:
            acked_created += len(agent.created)
            stored = set(
                ShorttermMemory.objects.filter(pk__in=agent.created).values_list("pk", flat=True)
            )
            if len(stored) != len(set(agent.created)):
                problems.append(f"agent {agent.index}: {len(agent.created) - len(stored)} lost")
            own = ShorttermMemory.objects.filter(
                worker_id=agent.worker_id, title__startswith="Load note "
            ).count()
            # A request the client gave up on (timeout) may still have been stored.
            unacknowledged += own - len(stored)
            if own < len(stored) or own - len(stored) > agent.gave_up:
                problems.append(
                    f"agent {agent.index}: {own} memories stored, {len(agent.created)} "
                    f"acknowledged, {agent.gave_up} abandoned"
                )
            sections = ActiveMemory.objects.get(pk=agent.memory_id).sections
            for section, acks in agent.section_acks.items():
                acked_updates += acks
                data = sections.get(section, {})
                count = int(data.get("update_count", 0))
                was_migrated = (agent.memory_id, section) in migrated
                if data.get("content") != agent.section_last[section]:
                    problems.append(f"agent {agent.index} {section}: not the last content")
                if count > acks or (count != acks and not was_migrated):
                    problems.append(
                        f"agent {agent.index} {section}: count {count}, {acks} acknowledged"
                        + (" (migrated)" if was_migrated else "")
                    )
        return {
            "ok": not problems,
            "memories_acknowledged": acked_created,
            "section_updates_acknowledged": acked_updates,
            "memories_stored_unacknowledged": unacknowledged,
            "sections_migrated_meanwhile": len(migrated),
            "problems": problems[:20],
        }

    def _report(self, figures: dict) -> None:
        load = ", ".join(f"{x:.1f}" for x in figures["machine"]["load_average"])
        self.log(
            f"\n{figures['requests']} requests in {figures['options']['duration']:.0f} s: "
            f"{figures['requests_per_s']} req/s  ({figures['machine']['cpus']} CPUs, "
            f"load average {load}, embedder {figures['embedder']})"
        )
        self.log(f"{'endpoint':<16}{'n':>7}{'p50 ms':>10}{'p95 ms':>10}{'p99 ms':>10}")
        for name, s in [*figures["endpoints"].items(), ("all", figures["all"])]:
            self.log(f"{name:<16}{s['n']:>7}{s['p50']:>10.1f}{s['p95']:>10.1f}{s['p99']:>10.1f}")
        errors = figures["errors"]
        self.log(f"errors: {errors['count']} ({errors['rate']:.2%}) {errors['by_status'] or ''}")

    def _report_check(self, check: dict) -> None:
        self.log(
            f"count check: {'OK' if check['ok'] else 'FAILED'} — "
            f"{check['memories_acknowledged']} memories and "
            f"{check['section_updates_acknowledged']} section updates acknowledged, "
            f"{check['memories_stored_unacknowledged']} stored after the client gave up, "
            f"{check['sections_migrated_meanwhile']} sections migrated meanwhile"
        )
        for problem in check["problems"]:
            self.log(f"  {problem}")
