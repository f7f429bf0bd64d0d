"""Cross-tier retrieval and the context block through HTTP on a large worker: ``--chunks``
shortterm chunks (memories of 10) promoted into as many current longterm versions (the
shortterm vectors reused, as promotion does; their graph extraction left pending), and a
few active memories. Times
``POST .../retrieve`` with ``tiers="auto"`` (queries with and without seed 003's cues, so
every selection path runs) and ``POST .../context`` through the Python client, p50/p95."""

import json
import logging
import random
import time
from pathlib import Path

import numpy as np
from django.conf import settings
from django.db import connection

from bench.corpus import generate_chunks, generate_queries
from bench.importing import extraction_left_pending
from bench.measure import (
    BenchCommand,
    Precomputed,
    embed_in_batches,
    fmt,
    http_server,
    percentiles,
)
from memoryhub.models import Worker
from memoryhub.progress import Progress
from memoryhub.providers.embeddings import get_embedder
from memoryhub.services.workers import token_issue, worker_create, worker_delete
from tiers.models import LongtermChunk, ShorttermChunk
from tiers.services.active import active_memory_create
from tiers.services.longterm import SourceChunk, longterm_versions_write
from tiers.services.shortterm import shortterm_memory_create

NAME = "bench-retrieval"
MEMORY_SIZE = 10
# One cue of each kind seed 003's selection reads, and none (the default path).
CUES = {
    "current": "what is the current status of {}",
    "recent": "what happened recently with {}",
    "general": "in general, what are the best practices for {}",
    "none": "{}",
}
TEMPLATE = """\
template:
  id: bench_task
  name: Benchmark task
  version: "1.0"
sections:
  - id: status
    name: Status
    description: where the work stands
  - id: notes
    name: Notes
    description: what was learnt
"""


class Command(BenchCommand):
    help = (
        "Cross-tier retrieve (tiers=auto) and context building through HTTP over a worker "
        "with --chunks shortterm chunks and as many longterm versions: p50/p95 per cue."
    )

    def add_arguments(self, parser):
        parser.add_argument("--chunks", type=int, default=100_000)
        parser.add_argument("--queries", type=int, default=200, help="per cue")
        parser.add_argument(
            "--embedder",
            choices=("configured", "hash"),
            default="configured",
            help="the corpus's vectors (the queries are always embedded by the server's "
            "configured model); hash: instant, for a quick run",
        )
        parser.add_argument(
            "--reuse",
            action="store_true",
            help="time the worker kept by an earlier --keep run of the same size",
        )
        parser.add_argument("--keep", action="store_true", help="keep the benchmark worker")
        parser.add_argument("--json", help="also write the figures to this file")

    def handle(self, *args, **options):
        count = options["chunks"]
        texts = generate_chunks(count, seed=31)
        worker = Worker.objects.filter(name=NAME).first()
        described = f"retrieval benchmark, {count} chunks per tier (safe to delete)"
        if options["reuse"] and worker is not None and worker.description == described:
            self.log(f"{NAME}: reused ({count} chunks per tier)")
        else:
            if worker is not None:
                worker_delete(worker=worker)
            worker = worker_create(name=NAME, description=described)
            self._load(worker, texts, options["embedder"])
        shortterm = ShorttermChunk.objects.filter(worker=worker).count()
        longterm = LongtermChunk.objects.filter(worker=worker, end_date__isnull=True).count()
        self.log(f"worker {worker.pk}: {shortterm} shortterm chunks, {longterm} longterm current")
        results = {"shortterm_chunks": shortterm, "longterm_current": longterm}
        results.update(self._time(worker, texts, options["queries"]))
        if not (options["keep"] or options["reuse"]):
            worker_delete(worker=worker)
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(results, indent=2))

    def _load(self, worker: Worker, texts: list[str], embedder_choice: str) -> None:
        dimension = settings.MEMORYHUB_EMBEDDINGS["dimension"]
        if embedder_choice == "hash":
            from memoryhub.providers.embeddings import HashEmbeddings

            embedder = HashEmbeddings(dimension=dimension)
        else:
            embedder = get_embedder()
        vectors, _ = embed_in_batches(embedder, texts, dimension=dimension, stream=self.stderr._out)
        precomputed = Precomputed(dict(zip(texts, vectors, strict=True)))
        rng = random.Random(5)
        progress = Progress(len(texts), "shortterm + longterm", stream=self.stderr._out)
        # retrieve reads no graph (include_graph is off): the memories' extraction is left
        # pending for the sweep (with --keep, a running cluster's sweep extracts them).
        with extraction_left_pending():
            for start in range(0, len(texts), MEMORY_SIZE):
                batch = texts[start : start + MEMORY_SIZE]
                memory = shortterm_memory_create(
                    worker=worker,
                    title=f"notes {start // MEMORY_SIZE}",
                    chunks=[{"content": text} for text in batch],
                    embedder=precomputed,
                )
                longterm_versions_write(
                    worker=worker,
                    shortterm_memory_id=memory.pk,
                    title=memory.title,
                    chunks=[
                        SourceChunk(
                            chunk_order=order, content=text, embedding=precomputed.vectors[text]
                        )
                        for order, text in enumerate(batch)
                    ],
                    confidence=round(rng.uniform(0.5, 1.0), 3),
                    importance=round(rng.uniform(2, 9), 2),
                )
                progress.advance(len(batch))
        progress.finish()
        for number in range(5):
            active_memory_create(
                worker=worker,
                title=f"task {number}",
                template_yaml=TEMPLATE,
                initial_sections={"status": texts[number], "notes": texts[number + 5]},
            )
        with connection.cursor() as cursor:
            for table in (
                "tiers_shorttermchunk",
                "tiers_longtermchunk",
                "tiers_bm25posting",
                "tiers_bm25term",
            ):
                cursor.execute(f"VACUUM ANALYZE {table}")

    def _time(self, worker: Worker, texts: list[str], per_cue: int) -> dict:
        from memoryhub.client import MemoryHub

        logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request otherwise
        key = token_issue(worker=worker, name="bench_retrieval")[1]
        topics = generate_queries(texts, per_cue * len(CUES), seed=17)
        results: dict = {}
        with http_server(settings.BASE_DIR) as base, MemoryHub(base, key) as hub:
            for topic in topics[:10]:  # warm up: model, connections, caches
                hub.retrieve(topic)
            self.log(f"\nPOST .../retrieve, tiers=auto, 10 per tier, through {base}")
            for number, (cue, form) in enumerate(CUES.items()):
                samples, searched = [], {}
                for topic in topics[number * per_cue : (number + 1) * per_cue]:
                    started = time.perf_counter()
                    answer = hub.retrieve(form.format(topic), record_access=False)
                    samples.append((time.perf_counter() - started) * 1000)
                    tiers = "+".join(answer["tiers"])
                    searched[tiers] = searched.get(tiers, 0) + 1
                stats = percentiles(samples)
                results[f"retrieve auto, {cue}"] = {**stats, "tiers": searched}
                self.log(f"  {cue:8} {fmt(stats)}   tiers searched: {searched}")
            every = [s for label, s in results.items() if label.startswith("retrieve")]
            self.log(
                f"  all      p50 {np.median([s['p50'] for s in every]):7.2f} ms (median of cues)"
                f"   p95 {max(s['p95'] for s in every):7.2f} ms (worst cue)"
            )
            for budget in (None, 500):
                samples, tokens = [], []
                for topic in topics[:per_cue]:
                    started = time.perf_counter()
                    block = hub.build_context(topic, token_budget=budget)
                    samples.append((time.perf_counter() - started) * 1000)
                    tokens.append(block["tokens"])
                stats = percentiles(samples)
                label = f"context, token_budget={budget}"
                results[label] = {**stats, "tokens_p50": float(np.median(tokens))}
                self.log(f"  {label:26} {fmt(stats)}   tokens p50 {np.median(tokens):.0f}")
        return results
