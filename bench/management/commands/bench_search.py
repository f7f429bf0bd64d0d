"""Search benchmark: ingest, latency (service and HTTP), HNSW recall, database size, and
the same corpus and queries in memory (exact cosine on torch + bm25s) as the limit."""

import json
import os
import time

import numpy as np
from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection, transaction

from bench.corpus import generate_chunks, generate_queries
from bench.measure import (
    BenchCommand,
    Precomputed,
    embed_in_batches,
    fmt,
    http_server,
    percentiles,
    post_json,
)
from memoryhub.models import Worker
from memoryhub.progress import Progress
from memoryhub.providers import embeddings
from memoryhub.services.workers import token_issue, worker_create, worker_delete
from tiers.models import ShorttermChunk
from tiers.search import search, search_params
from tiers.search.vector import hnsw_ef_search, vector_ranked
from tiers.services.maintenance import shortterm_tables_vacuum
from tiers.services.shortterm import shortterm_memory_create

MODES = ("vector", "bm25", "hybrid")


def _rrf(lists: list[list[int]], k: int) -> list[int]:
    scores: dict[int, float] = {}
    for ranked in lists:
        for position, doc in enumerate(ranked, start=1):
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + position)
    return sorted(scores, key=lambda d: -scores[d])


def _vacuum(deleted: int = 0) -> None:
    """Vacuum and analyse the tables a benchmark writes, and rebuild the HNSW graph after
    a delete that took a large share of it (what a large delete queues in production), so
    that neither autovacuum nor a graph full of deleted elements weighs on the timings."""
    shortterm_tables_vacuum(deleted=deleted)
    with connection.cursor() as cursor:
        for table in ("graph_entity", "graph_relationship"):
            cursor.execute(f"VACUUM ANALYZE {table}")


def _delete(worker) -> None:
    _vacuum(deleted=worker_delete(worker=worker).get("shortterm_chunks", 0))


class Command(BenchCommand):
    help = "Benchmark shortterm ingest and search (prints p50/p95, throughput, recall, size)."

    def add_arguments(self, parser):
        parser.add_argument("--chunks", type=int, default=10_000)
        parser.add_argument("--queries", type=int, default=200, help="per mode")
        parser.add_argument("--memory-size", type=int, default=100, help="chunks per memory")
        parser.add_argument("--no-http", action="store_true", help="skip the HTTP API timings")
        parser.add_argument(
            "--keep", action="store_true", help="keep the benchmark worker afterwards"
        )
        parser.add_argument(
            "--reuse",
            action="store_true",
            help="reuse a kept benchmark worker of the same size: search timings only",
        )
        parser.add_argument("--json", help="also write the figures to this file")

    def handle(self, *args, **options):
        try:
            import bm25s
        except ImportError as exc:
            raise CommandError(
                "bench_search needs the bench extra: .venv/bin/pip install -e '.[bench]'"
            ) from exc
        n, q_count = options["chunks"], options["queries"]
        embedder = embeddings.get_embedder()
        config = settings.MEMORYHUB_SEARCH
        report: dict = {
            "chunks": n,
            "queries_per_mode": q_count,
            "provider": embedder.name,
            "cpus": os.cpu_count(),
        }
        self.log(
            f"MemoryHub search benchmark: {n} chunks, {q_count} queries per mode, "
            f"{embedder.name} embeddings, {report['cpus']} CPUs"
        )

        texts = generate_chunks(n)
        queries = generate_queries(texts, q_count * len(MODES))
        query_sets = {
            mode: queries[i * q_count : (i + 1) * q_count] for i, mode in enumerate(MODES)
        }

        name = f"bench-{n}"
        existing = Worker.objects.filter(name=name).first()
        if (
            options["reuse"]
            and existing
            and ShorttermChunk.objects.filter(worker=existing).count() == n
        ):
            worker = existing
            rows = ShorttermChunk.objects.filter(worker=worker).order_by("metadata__bench_id")
            vectors = np.stack(
                [np.asarray(v, dtype=np.float32) for v in rows.values_list("embedding", flat=True)]
            )
            report["ingest"] = None
            self.log("reusing the kept benchmark worker: ingest is not measured")
        else:
            if existing:
                _delete(existing)
            else:
                _vacuum()  # not autovacuum's, during the timings
            worker = worker_create(name=name, description="search benchmark (safe to delete)")
            vectors, report["ingest"] = self._ingest(
                worker, texts, embedder, options["memory_size"]
            )
        _vacuum()

        # 2. The in-memory limit (same corpus and queries, exact cosine + bm25s, same RRF) and
        # the service layer, query embedding included (the query cache is emptied), timed
        # query by query in turn: both see the same moments of this drifting VM.
        started = time.perf_counter()
        retriever = bm25s.BM25(k1=config["bm25_k1"], b=config["bm25_b"])
        retriever.index(
            bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False
        )
        report["in_memory_bm25_index_s"] = time.perf_counter() - started
        candidates = max(10, config["candidates"])
        # The exact cosine runs on torch's thread pool (the one the embedding model uses):
        # numpy's BLAS threads would spin against torch's and distort the limit.
        import torch

        matrix = torch.from_numpy(vectors)

        def memory_search(mode, query):
            vector_ids = bm25_ids = []
            if mode != "bm25":
                qv = embedder.embed_documents([query])[0]
                sims = (matrix @ torch.from_numpy(qv)).numpy()
                top = np.argpartition(-sims, candidates)[:candidates]
                vector_ids = top[np.argsort(-sims[top])].tolist()
            if mode != "vector":
                docs, scores = retriever.retrieve(
                    bm25s.tokenize([query], stopwords="en", show_progress=False),
                    k=candidates,
                    show_progress=False,
                )
                bm25_ids = [int(d) for d, s in zip(docs[0], scores[0], strict=True) if s > 0]
            if mode == "hybrid":
                return _rrf([vector_ids, bm25_ids], config["rrf_k"])[:10]
            return (vector_ids or bm25_ids)[:10]

        def service_search(mode, query):
            embeddings._query_cache.clear()
            return search(worker=worker, params=search_params(query=query, mode=mode, limit=10))

        for mode in MODES:
            for query in query_sets[mode][:10]:
                service_search(mode, query)
                memory_search(mode, query)
        report["service"], report["in_memory"] = {}, {}
        for mode in MODES:
            ours, limit = [], []
            for query in query_sets[mode]:
                for run, samples in ((service_search, ours), (memory_search, limit)):
                    started = time.perf_counter()
                    run(mode, query)
                    samples.append((time.perf_counter() - started) * 1000)
            report["service"][mode], report["in_memory"][mode] = (
                percentiles(ours),
                percentiles(limit),
            )

        # 3. HNSW recall@10 against exact search.
        recalls = []
        for query in queries[:q_count]:
            literal = embeddings.vector_literal(embedder.embed_query(query))
            params = search_params(query=query, mode="vector", limit=10, candidates=10)
            with connection.cursor() as cursor:
                with transaction.atomic():
                    exact = {
                        c
                        for c, _ in vector_ranked(
                            worker_id=worker.pk,
                            query_vector=literal,
                            params=params.__class__(**{**params.__dict__, "exact": True}),
                            cursor=cursor,
                        )
                    }
                with transaction.atomic():
                    approx = {
                        c
                        for c, _ in vector_ranked(
                            worker_id=worker.pk,
                            query_vector=literal,
                            params=params.__class__(**{**params.__dict__, "exact": False}),
                            cursor=cursor,
                        )
                    }
            recalls.append(len(exact & approx) / max(len(exact), 1))
        report["hnsw_recall_at_10"] = float(np.mean(recalls))
        report["hnsw_ef_search"] = hnsw_ef_search(n, params.candidates)

        # 4. Through the HTTP API (gunicorn, real sockets), query embedding included.
        if not options["no_http"]:
            _, key = token_issue(worker=worker, name="bench")
            report["http"] = {}
            with http_server(settings.BASE_DIR) as base:
                url = f"{base}/api/v1/workers/{worker.pk}/search/shortterm"
                for query in queries[:10]:
                    post_json(url, {"query": query + " warmup", "mode": "hybrid", "limit": 10}, key)
                for mode in MODES:
                    samples = []
                    for query in query_sets[mode]:
                        started = time.perf_counter()
                        post_json(url, {"query": query, "mode": mode, "limit": 10}, key)
                        samples.append((time.perf_counter() - started) * 1000)
                    report["http"][mode] = percentiles(samples)

        # 5. Database size.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_database_size(current_database()), "
                "pg_total_relation_size('tiers_shorttermchunk'), "
                "pg_total_relation_size('tiers_bm25posting'), "
                "pg_total_relation_size('tiers_bm25term')"
            )
            db, chunks, postings, terms = cursor.fetchone()
        report["size_mb"] = {
            "database": db / 2**20,
            "chunks_with_vectors_and_hnsw": chunks / 2**20,
            "bm25_postings": postings / 2**20,
            "bm25_terms": terms / 2**20,
        }
        report["chunk_count"] = ShorttermChunk.objects.filter(worker=worker).count()

        self._print(report)
        if options["json"]:
            with open(options["json"], "w") as fh:
                json.dump(report, fh, indent=2)
        if not options["keep"]:
            _delete(worker)

    def _ingest(self, worker, texts, embedder, size):
        """The model alone, then the write path alone with those vectors."""
        n = len(texts)
        embedder.embed_documents(texts[:64])  # load the model before timing
        batch = 256
        vectors, t_embed = embed_in_batches(
            embedder, texts, dimension=embedder.dimension, stream=self.stderr._out, batch=batch
        )
        precomputed = Precomputed(dict(zip(texts, vectors, strict=True)))
        progress = Progress(n, "writing", stream=self.stderr._out)
        for start in range(0, n, size):
            shortterm_memory_create(
                worker=worker,
                title=f"ops notes {start // size}",
                chunks=[
                    {"content": t, "metadata": {"bench_id": start + i}}
                    for i, t in enumerate(texts[start : start + size])
                ],
                embedder=precomputed,
            )
            progress.advance(min(size, n - start))
        t_write = progress.finish()
        # The real thing: the service embeds and writes into a second worker, on top of
        # the corpus just loaded (the HNSW index is shared). Each batch is embedded by the
        # model alone right before it goes through the service, so that both figures see
        # the same texts and the same machine (this VM drifts ±10–15 % over minutes);
        # autovacuum's work after the load is done first, not during the timings.
        _vacuum()
        sample = generate_chunks(min(n, 10_000), seed=43)
        scratch = worker_create(
            name=f"{worker.name}-ingest", description="ingest benchmark (safe to delete)"
        )
        progress = Progress(len(sample), "ingest (embed + write)", stream=self.stderr._out)
        t_model = t_ingest = 0.0
        try:
            for start in range(0, len(sample), 1000):
                texts_batch = sample[start : start + 1000]
                started = time.perf_counter()
                for offset in range(0, len(texts_batch), batch):
                    embedder.embed_documents(texts_batch[offset : offset + batch])
                t_model += time.perf_counter() - started
                started = time.perf_counter()
                shortterm_memory_create(
                    worker=scratch,
                    title=f"import {start}",
                    chunks=[{"content": t} for t in texts_batch],
                )
                t_ingest += time.perf_counter() - started
                progress.advance(len(texts_batch))
            progress.finish()
        finally:
            _delete(scratch)
        ingest = {
            "embedding_model_chunks_per_s": n / t_embed,
            "write_only_chunks_per_s": n / t_write,
            "model_on_sample_chunks_per_s": len(sample) / t_model,
            "with_embeddings_chunks_per_s": len(sample) / t_ingest,
            "with_embeddings_sample": len(sample),
        }
        ingest["ratio_to_model"] = (
            ingest["with_embeddings_chunks_per_s"] / ingest["model_on_sample_chunks_per_s"]
        )
        return vectors, ingest

    def _print(self, r: dict) -> None:
        ingest = r["ingest"]
        self.log("")
        if ingest:
            self.log(f"== Ingest ({r['chunk_count']} chunks, {r['provider']} embeddings)")
            self.log(
                f"  embedding model alone     "
                f"{ingest['embedding_model_chunks_per_s']:9.0f} chunks/s"
            )
            self.log(
                f"  writes alone (no embed)   {ingest['write_only_chunks_per_s']:9.0f} chunks/s"
            )
            self.log(
                f"  model on the ingest batch "
                f"{ingest['model_on_sample_chunks_per_s']:9.0f} chunks/s"
                "   (each batch embedded alone right before its ingest)"
            )
            self.log(
                f"  ingest with embeddings    "
                f"{ingest['with_embeddings_chunks_per_s']:9.0f} chunks/s"
                f"   = {ingest['ratio_to_model']:.2f} x the model's own throughput "
                f"({ingest['with_embeddings_sample']} chunks through the service, 1000 per memory)"
            )
        self.log("== Search latency, top 10, query embedding included")
        for mode in MODES:
            limit = r["in_memory"][mode]
            self.log(
                f"  service {mode:7s} {fmt(r['service'][mode])}   "
                f"ratio to in-memory: p50 {r['service'][mode]['p50'] / limit['p50']:.2f}x, "
                f"p95 {r['service'][mode]['p95'] / limit['p95']:.2f}x"
            )
        for mode in MODES if "http" in r else ():
            self.log(f"  HTTP    {mode:7s} {fmt(r['http'][mode])}")
        for mode in MODES:
            self.log(f"  memory  {mode:7s} {fmt(r['in_memory'][mode])}   (exact cosine + bm25s)")
        self.log(
            f"== HNSW recall@10 vs exact: {r['hnsw_recall_at_10']:.4f} "
            f"(ef_search {r['hnsw_ef_search']})"
        )
        size = r["size_mb"]
        self.log(
            f"== Size: database {size['database']:.1f} MB; chunks+vectors+HNSW "
            f"{size['chunks_with_vectors_and_hnsw']:.1f} MB; "
            f"BM25 postings {size['bm25_postings']:.1f} MB, "
            f"terms {size['bm25_terms']:.1f} MB"
        )
