"""Benchmark the longterm tier: the promotion sweep over shortterm memories with synthetic
usage, and longterm hybrid search with a temporal filter over many versions."""

import json
import random
import re
import time
from datetime import timedelta

import numpy as np
from django.conf import settings
from django.db import connection
from django.utils import timezone

from bench.corpus import generate_chunks, generate_queries
from bench.measure import BenchCommand, Precomputed, embed_in_batches, fmt, percentiles
from consolidation.services.shortterm_to_longterm import promotion_sweep
from memoryhub.models import Worker
from memoryhub.progress import Progress
from memoryhub.providers.embeddings import HashEmbeddings, get_embedder
from memoryhub.services.workers import worker_create, worker_delete
from tiers.models import LongtermChunk, MemoryUsage, ShorttermMemory
from tiers.search import search
from tiers.search.corpus import LONGTERM
from tiers.search.filters import filters_sql
from tiers.search.params import search_params
from tiers.services.longterm import SourceChunk, longterm_versions_write
from tiers.services.shortterm import shortterm_memory_create

SESSIONS = [f"session-{i}" for i in range(12)]


class Command(BenchCommand):
    help = (
        "Benchmark the longterm tier: promotion sweep throughput and p95 per memory over "
        "--memories shortterm memories with synthetic usage; longterm search p50/p95 over "
        "--chunks versions with valid_at / time_range filters, and the query plans."
    )

    def add_arguments(self, parser):
        parser.add_argument("--memories", type=int, default=10_000)
        parser.add_argument("--chunks", type=int, default=100_000)
        parser.add_argument("--queries", type=int, default=200)
        parser.add_argument(
            "--embedder",
            choices=("configured", "hash"),
            default="configured",
            help="vectors of the longterm corpus and queries (hash: instant, for a quick run)",
        )
        parser.add_argument("--skip-promotion", action="store_true")
        parser.add_argument("--skip-search", action="store_true")
        parser.add_argument("--keep", action="store_true", help="keep the bench workers")
        parser.add_argument("--json", help="also write the figures to this file")

    def handle(self, *args, **options):
        figures = {"machine": {"cpus": __import__("os").cpu_count()}}
        if not options["skip_promotion"]:
            figures["promotion"] = self._promotion(options["memories"], keep=options["keep"])
        if not options["skip_search"]:
            figures["search"] = self._search(options, keep=options["keep"])
        if options["json"]:
            with open(options["json"], "w") as handle:
                json.dump(figures, handle, indent=2, default=str)

    # --- promotion -------------------------------------------------------------------

    def _promotion(self, count: int, *, keep: bool) -> dict:
        worker = self._fresh_worker("bench-promotion")
        texts = generate_chunks(count, seed=11)
        personal = [
            "I prefer {tech} for new services.",
            "My manager is {person}; I report to her weekly.",
            "I believe code review matters more than tests.",
            "I was so relieved when the outage ended!",
        ]
        rng = random.Random(5)
        embedder = HashEmbeddings(settings.MEMORYHUB_EMBEDDINGS["dimension"])
        progress = Progress(count, "creating shortterm memories", stream=self.stderr._out)
        for i, text in enumerate(texts):
            if rng.random() < 0.3:
                text += " " + rng.choice(personal).format(tech="Rust", person="Ana")
            shortterm_memory_create(
                worker=worker, title=f"note {i}", content=text, embedder=embedder
            )
            progress.advance()
        progress.finish()
        self._synthetic_usage(worker, rng)
        self.log(f"\nPromotion sweep over {count} shortterm memories (synthetic usage)")
        results = {}
        for label in ("first sweep", "second sweep (unchanged)"):
            stamps = [time.perf_counter()]
            started = stamps[0]
            promotion_sweep(
                worker_id=worker.pk,
                limit=count,
                progress=lambda done, total, stamps=stamps: stamps.append(time.perf_counter()),
            )
            elapsed = time.perf_counter() - started
            per_memory = [(b - a) * 1000 for a, b in zip(stamps, stamps[1:], strict=False)]
            stats = percentiles(per_memory)
            promoted = (
                LongtermChunk.objects.filter(worker=worker)
                .values("shortterm_memory_id")
                .distinct()
                .count()
            )
            results[label] = {
                "memories_per_s": count / elapsed,
                "per_memory_ms": stats,
                "promoted_memories": promoted,
                "versions": LongtermChunk.objects.filter(worker=worker).count(),
            }
            self.log(
                f"  {label:26} {count / elapsed:8.1f} memories/s   per memory {fmt(stats)}   "
                f"promoted {promoted}, versions {results[label]['versions']}"
            )
        if not keep:
            worker_delete(worker=worker)
        return results

    def _synthetic_usage(self, worker: Worker, rng: random.Random) -> None:
        """Usage summaries as a month of agents would leave them: most memories barely
        touched, some used across sessions, a few confirmed, corrected or contradicted."""
        now = timezone.now()
        memories = list(ShorttermMemory.objects.filter(worker=worker).values_list("pk", flat=True))
        ShorttermMemory.objects.filter(worker=worker).update(created_at=now - timedelta(days=3))
        rows = []
        for memory_id in memories:
            accesses = min(int(rng.expovariate(1 / 3)), 40)
            sessions = rng.sample(SESSIONS, k=min(len(SESSIONS), rng.randint(0, 3)))
            times = sorted(now - timedelta(hours=rng.uniform(0, 70)) for _ in range(accesses))
            contradicted = rng.random() < 0.05
            rows.append(
                MemoryUsage(
                    memory_id=memory_id,
                    worker=worker,
                    access_count=accesses,
                    access_times=[t.isoformat() for t in times[-MemoryUsage.MAX_TIMES :]],
                    first_accessed_at=times[0] if times else None,
                    last_accessed_at=times[-1] if times else None,
                    sessions=sessions,
                    session_count=len(sessions),
                    confirmations=int(rng.random() < 0.2),
                    corrections=int(rng.random() < 0.02),
                    contradictions=int(contradicted),
                    last_contradiction_at=now - timedelta(hours=rng.uniform(0, 48))
                    if contradicted
                    else None,
                    user_mentions=rng.choice((0, 0, 0, 1, 2)),
                    importance_marks=int(rng.random() < 0.01),
                )
            )
        MemoryUsage.objects.bulk_create(rows, batch_size=2000)

    # --- search ------------------------------------------------------------------------

    def _search(self, options, *, keep: bool) -> dict:
        count, queries_n = options["chunks"], options["queries"]
        if options["embedder"] == "hash":  # the queries too: search embeds with the setting
            settings.MEMORYHUB_EMBEDDINGS = {**settings.MEMORYHUB_EMBEDDINGS, "provider": "hash"}
        embedder = get_embedder()
        worker = self._fresh_worker("bench-longterm")
        texts = generate_chunks(count, seed=21)
        vectors, _ = embed_in_batches(
            embedder,
            texts,
            dimension=settings.MEMORYHUB_EMBEDDINGS["dimension"],
            stream=self.stderr._out,
        )
        # Sources of 10 chunks, each promoted 1-3 times over the last 90 days: the later
        # promotions rewrite some chunks (new versions), so ~40 % of the versions are ended.
        rng = random.Random(3)
        now = timezone.now()
        progress = Progress(count, "writing longterm versions", stream=self.stderr._out)
        written, source = 0, 0
        while written < count:
            source += 1
            size = min(10, count - written)
            orders = list(range(size))
            base = now - timedelta(days=90)
            chunk_texts = texts[written : written + size]
            chunk_vectors = vectors[written : written + size]
            promotions = rng.choice((1, 2, 2, 3))
            moments = sorted(base + timedelta(days=rng.uniform(0, 89)) for _ in range(promotions))
            contents = list(chunk_texts)
            for step, moment in enumerate(moments):
                if step:
                    # the later promotions change a few chunks
                    for order in rng.sample(orders, k=max(1, size // 3)):
                        contents[order] = contents[order] + f" (revised {step})"
                longterm_versions_write(
                    worker=worker,
                    shortterm_memory_id=10_000_000 + source,
                    title=f"source {source}",
                    chunks=[
                        SourceChunk(chunk_order=o, content=contents[o], embedding=chunk_vectors[o])
                        for o in orders
                    ],
                    confidence=round(rng.uniform(0.5, 1.0), 3),
                    importance=round(rng.uniform(2, 9), 2),
                    now=moment,
                )
            written += size
            progress.advance(size)
        progress.finish()
        with connection.cursor() as cursor:
            for table in ("tiers_longtermchunk", "tiers_bm25posting", "tiers_bm25term"):
                cursor.execute(f"VACUUM ANALYZE {table}")
        versions = LongtermChunk.objects.filter(worker=worker).count()
        current = LongtermChunk.objects.filter(worker=worker, end_date__isnull=True).count()
        self.log(f"\nLongterm search over {versions} versions ({current} current), hybrid")
        queries = generate_queries(texts, queries_n)
        precomputed = Precomputed(
            dict(zip(queries, embedder.embed_documents(queries), strict=True))
        )
        results = {"versions": versions, "current": current}
        cases = {
            "current (end_date IS NULL)": {},
            "valid_at (a random past day)": "valid_at",
            "time_range (a random week)": "time_range",
            "current, confidence >= 0.8": {"confidence_threshold": 0.8},
        }
        for query in queries[:10]:  # warm up: model, connections, caches
            search(worker=worker, query=query, corpus="longterm", mode="hybrid")
        for label, case in cases.items():
            samples = []
            for query in queries:
                options = case
                if case == "valid_at":
                    options = {"valid_at": now - timedelta(days=rng.uniform(1, 89))}
                elif case == "time_range":
                    start = now - timedelta(days=rng.uniform(7, 89))
                    options = {"time_range": (start, start + timedelta(days=7))}
                started = time.perf_counter()
                search(worker=worker, query=query, corpus="longterm", mode="hybrid", **options)
                samples.append((time.perf_counter() - started) * 1000)
            stats = percentiles(samples)
            results[label] = stats
            self.log(f"  {label:32} {fmt(stats)}")
        for mode in ("vector", "bm25"):
            samples = []
            for query in queries:
                started = time.perf_counter()
                search(worker=worker, query=query, corpus="longterm", mode=mode)
                samples.append((time.perf_counter() - started) * 1000)
            results[f"current, {mode} only"] = stats = percentiles(samples)
            self.log(f"  {'current, ' + mode + ' only':32} {fmt(stats)}")
        results["query_embedding_ms"] = self._time_query_embedding(embedder, queries[:50])
        self.log(f"  (of which embedding the query: p50 {results['query_embedding_ms']:.2f} ms)")
        results["plans"] = self._plans(worker, precomputed.vectors[queries[0]], now)
        for name, plan in results["plans"].items():
            self.log(f"\nQuery plan, {name}:\n{plan}")
        if not keep:
            worker_delete(worker=worker)
        return results

    def _time_query_embedding(self, embedder, queries) -> float:
        samples = []
        for query in queries:
            started = time.perf_counter()
            embedder.embed_query(query)
            samples.append((time.perf_counter() - started) * 1000)
        return float(np.percentile(samples, 50))

    def _plans(self, worker: Worker, vector, now) -> dict:
        """EXPLAIN of the vector list and the BM25 list under a valid_at filter."""
        from memoryhub.providers.embeddings import vector_literal
        from tiers.search.vector import hnsw_ef_search

        params = search_params(
            query="payments api latency", mode="hybrid", valid_at=now - timedelta(days=30)
        )
        extra, args = filters_sql(params, LONGTERM)
        plans = {}
        with connection.cursor() as cursor:
            cursor.execute("SET hnsw.iterative_scan = relaxed_order")
            cursor.execute(f"SET hnsw.ef_search = {hnsw_ef_search(10**6, params.candidates)}")
            cursor.execute(
                f"""EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
                SELECT c.id, c.embedding <=> %s::vector AS distance FROM {LONGTERM.chunks} c
                WHERE c.worker_id = %s AND c.embedding IS NOT NULL{extra}
                ORDER BY distance LIMIT %s""",
                [vector_literal(vector), worker.pk, *args, params.candidates],
            )
            plans["vector list, valid_at"] = "\n".join(
                re.sub(r"'\[[^']*\]'", "'[query vector]'", row[0]) for row in cursor.fetchall()
            )
            cursor.execute(
                f"""EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
                SELECT c.id FROM {LONGTERM.chunks} c
                WHERE c.worker_id = %s{extra} ORDER BY c.start_date DESC LIMIT 50""",
                [worker.pk, *args],
            )
            plans["as-of listing, valid_at"] = "\n".join(row[0] for row in cursor.fetchall())
            for name, tiers, extra_sql, extra_args in (
                ("BM25 list, current", [LONGTERM.tier], "", []),
                ("BM25 list, valid_at", LONGTERM.bm25_tier_keys, extra, args),
            ):
                join = (
                    f" JOIN {LONGTERM.chunks} c ON c.id = p.chunk_id AND c.worker_id = p.worker_id"
                    if extra_sql
                    else ""
                )
                cursor.execute(
                    f"""EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
                    SELECT p.chunk_id, sum(p.tf) AS score FROM tiers_bm25posting p{join}
                    WHERE p.worker_id = %s AND p.tier = ANY(%s)
                      AND p.term = ANY(ARRAY['payment', 'api', 'latenc']){extra_sql}
                    GROUP BY p.chunk_id ORDER BY score DESC LIMIT 60""",
                    [worker.pk, tiers, *extra_args],
                )
                plans[name] = "\n".join(row[0] for row in cursor.fetchall())
            cursor.execute("RESET hnsw.iterative_scan")
            cursor.execute("RESET hnsw.ef_search")
        return plans

    def _fresh_worker(self, name: str) -> Worker:
        old = Worker.objects.filter(name=name).first()
        if old is not None:
            worker_delete(worker=old)
        return worker_create(name=name, description="benchmark (safe to delete)")
