"""Write speed: LoCoMo's turns embedded by the model alone, against the same turns stored
through the HTTP API (gunicorn, one ``POST .../shortterm/`` per session, each turn a chunk)
and through the service in this process, interleaved round by round so that all three see
the same moments of this machine. The service's time is split into its steps (embedding,
graph extraction, chunks with their BM25 postings, graph rows, the rest: validation, the
memory row, commit); the API's extra over the service is the request's own cost."""

import json
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError

from bench.locomo import LOCOMO_DIR, conversations, sessions, turn_chunk
from bench.measure import BenchCommand, http_server, post_json
from memoryhub.models import Worker
from memoryhub.providers.embeddings import get_embedder
from memoryhub.services.workers import token_issue, worker_create, worker_delete
from tiers.memory_graph import memory_graph, plug_memory_graph
from tiers.services import shortterm

WORKER_PREFIX = "bench-writes-"


def locomo_batches(folder: Path, only=None) -> list[dict]:
    """One ``{title, chunks}`` per LoCoMo session (the turns as ``bench_locomo`` stores
    them: "Speaker: text", dia_id, session, date and speaker in metadata)."""
    batches = []
    for path, _data, conversation in conversations(folder, only):
        for number, when, turns in sessions(conversation):
            batches.append(
                {
                    "title": f"{path.stem} session {number} ({when})",
                    "chunks": [turn_chunk(t, number, when, style="speaker") for t in turns],
                }
            )
    return batches


def embedded_texts(chunks: list[dict]) -> list[str]:
    """The texts the service hands the model for these chunks."""
    prepared = shortterm.prepare_chunks(chunks)
    embedding_text = getattr(shortterm, "embedding_text", None)
    if embedding_text is None:
        return [item.content for item in prepared]
    return [embedding_text(item.content, item.metadata) for item in prepared]


class _Timed:
    """Wall time spent inside some functions, by step."""

    def __init__(self):
        self.seconds: dict[str, float] = defaultdict(float)

    def wrap(self, step: str, function):
        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[step] += time.perf_counter() - started

        return timed


class _TimedGraph:
    def __init__(self, graph, timed: _Timed):
        self._graph = graph
        self.read = timed.wrap("graph extraction", graph.read)
        self.store = timed.wrap("graph rows", graph.store)

    def __getattr__(self, name):
        return getattr(self._graph, name)


class _TimedEmbedder:
    def __init__(self, embedder, timed: _Timed):
        self.name = embedder.name
        self.embed_documents = timed.wrap("embedding", embedder.embed_documents)


@contextmanager
def timed_service(timed: _Timed):
    """The service's steps timed for the block (this process only)."""
    graph = memory_graph()
    insert = shortterm._insert_chunks
    plug_memory_graph(_TimedGraph(graph, timed))
    shortterm._insert_chunks = timed.wrap("chunks + BM25 postings", insert)
    try:
        yield
    finally:
        plug_memory_graph(graph)
        shortterm._insert_chunks = insert


class Command(BenchCommand):
    help = (
        "Write speed: the model alone against the HTTP API and the service on LoCoMo's "
        "turns (one memory per session), interleaved; turns/s, ratios and where time goes."
    )

    def add_arguments(self, parser):
        parser.add_argument("--data", default=str(LOCOMO_DIR), help="folder of LoCoMo JSON files")
        parser.add_argument("--conversations", nargs="*", help="file stems, e.g. 26 30")
        parser.add_argument("--passes", type=int, default=2, help="times over all sessions")
        parser.add_argument("--round", type=int, default=4, help="sessions per round")
        parser.add_argument("--web-workers", type=int, default=1)
        parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker")
        parser.add_argument(
            "--preload", action="store_true", help="gunicorn --preload (the master loads the app)"
        )
        parser.add_argument(
            "--clients", type=int, default=1, help="sessions posted at once (one per thread)"
        )
        parser.add_argument(
            "--server-model-threads",
            type=int,
            help="OMP_NUM_THREADS for the web workers (manage.py serve sets 1); default: all cores",
        )
        parser.add_argument("--no-http", action="store_true")
        parser.add_argument("--no-service", action="store_true")
        parser.add_argument("--json", help="also write the figures to this file")

    def handle(self, *args, **options):
        try:
            batches = locomo_batches(Path(options["data"]), options["conversations"])
        except FileNotFoundError as exc:
            raise CommandError(f"--data: {exc}") from exc
        if min(options["passes"], options["round"], options["clients"]) < 1:
            raise CommandError("--passes, --round and --clients must be at least 1")
        embedder = get_embedder()
        config = settings.MEMORYHUB_EMBEDDINGS
        runtime = (
            f"{config['provider']} {config.get('runtime', '')} {config.get('precision', '')}"
        ).strip()
        turns = sum(len(b["chunks"]) for b in batches)
        self.log(
            f"{turns} turns in {len(batches)} sessions x {options['passes']} passes; "
            f"embeddings {runtime}; extraction {settings.MEMORYHUB_GRAPH['extraction_mode']}; "
            f"gunicorn {options['web_workers']} worker(s) x {options['threads']} thread(s)"
            f"{', --preload' if options['preload'] else ''}; {options['clients']} client(s)"
        )
        for stale in Worker.objects.filter(name__startswith=WORKER_PREFIX):
            worker_delete(worker=stale)
        api_worker = worker_create(name=f"{WORKER_PREFIX}api", description="safe to delete")
        service_worker = worker_create(name=f"{WORKER_PREFIX}service", description="safe to delete")
        _, key = token_issue(worker=api_worker, name="bench")
        texts = [embedded_texts(b["chunks"]) for b in batches]
        seconds: dict[str, float] = defaultdict(float)
        requests_ms: list[float] = []
        timed = _Timed()
        server = (
            http_server(
                settings.BASE_DIR,
                workers=options["web_workers"],
                threads=options["threads"],
                preload=options["preload"],
                env=(
                    {"OMP_NUM_THREADS": str(options["server_model_threads"])}
                    if options["server_model_threads"]
                    else None
                ),
            )
            if not options["no_http"]
            else None
        )
        try:
            with server or _nothing() as base:
                url = f"{base}/api/v1/workers/{api_worker.pk}/shortterm/"
                # Warm up: the model in this process and in every web worker, the parser.
                embedder.embed_documents(texts[0])
                warm = {"title": "warm-up", "chunks": batches[0]["chunks"][:4]}
                for _ in range(options["web_workers"] * 2 if base else 0):
                    post_json(url, warm, key)
                shortterm.shortterm_memory_create(worker=service_worker, **warm)
                order = list(range(len(batches))) * options["passes"]
                for start in range(0, len(order), options["round"]):
                    picked = order[start : start + options["round"]]
                    self._round(
                        picked,
                        batches,
                        texts,
                        embedder,
                        seconds,
                        requests_ms,
                        timed,
                        url,
                        key,
                        service_worker,
                        options,
                    )
                    self.stderr.write(
                        f"  {min(start + options['round'], len(order))}/{len(order)} sessions",
                        ending="\r",
                    )
        finally:
            for worker in (api_worker, service_worker):
                worker_delete(worker=worker)
        self.stderr.write("")
        report = self._report(turns * options["passes"], seconds, requests_ms, timed, options)
        report.update(runtime=runtime, turns=turns, sessions=len(batches))
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(report, indent=2))

    def _round(
        self,
        picked,
        batches,
        texts,
        embedder,
        seconds,
        requests_ms,
        timed,
        url,
        key,
        service_worker,
        options,
    ):
        started = time.perf_counter()
        for index in picked:
            embedder.embed_documents(texts[index])
        seconds["model"] += time.perf_counter() - started
        if not options["no_http"]:

            def post(index):
                began = time.perf_counter()
                post_json(url, batches[index], key)
                requests_ms.append((time.perf_counter() - began) * 1000)

            started = time.perf_counter()
            with ThreadPoolExecutor(options["clients"]) as pool:
                list(pool.map(post, picked))
            seconds["api"] += time.perf_counter() - started
        if not options["no_service"]:
            with timed_service(timed):
                measured = _TimedEmbedder(embedder, timed)
                for index in picked:
                    began = time.perf_counter()
                    shortterm.shortterm_memory_create(
                        worker=service_worker, embedder=measured, **batches[index]
                    )
                    seconds["service"] += time.perf_counter() - began

    def _report(self, turns, seconds, requests_ms, timed, options) -> dict:
        rate = {path: turns / s for path, s in seconds.items() if s}
        report = {"turns_per_s": rate, "passes": options["passes"]}
        self.log(f"\n== {turns} turns, one memory per session, interleaved by rounds")
        self.log(f"  model alone (one call per session)  {rate['model']:7.1f} turns/s")
        for path, label in (
            ("api", "HTTP API (one POST per session)"),
            ("service", "service in process"),
        ):
            if path in rate:
                report[f"{path}_to_model"] = rate[path] / rate["model"]
                self.log(
                    f"  {label:35s} {rate[path]:7.1f} turns/s = "
                    f"{rate[path] / rate['model']:.2f} x the model"
                )
        if requests_ms:
            data = sorted(requests_ms)
            report["request_ms"] = {"p50": data[len(data) // 2], "p95": data[int(len(data) * 0.95)]}
            self.log(
                f"  request p50 {report['request_ms']['p50']:.0f} ms, "
                f"p95 {report['request_ms']['p95']:.0f} ms"
            )
        if "service" in seconds:
            per_turn = {step: s / turns * 1000 for step, s in timed.seconds.items()}
            per_turn["rest (validation, memory row, commit)"] = seconds[
                "service"
            ] * 1000 / turns - sum(per_turn.values())
            if "api" in seconds:
                per_turn["request (HTTP, auth, JSON, response)"] = (
                    (seconds["api"] - seconds["service"]) * 1000 / turns
                )
            report["ms_per_turn"] = per_turn
            self.log(
                "== Where a turn's time goes (ms per turn; the service's steps, then the API's"
                " extra over the service)"
            )
            for step, ms in per_turn.items():
                self.log(f"  {step:40s} {ms:6.2f}")
        return report


@contextmanager
def _nothing():
    yield None
