"""The local model's two runtimes side by side (``MEMORYHUB_EMBEDDING_RUNTIME``): torch
(fp32, sentence-transformers) and int8 ONNX (onnxruntime). In one run, interleaved: ms per
sentence, turns/s in one call per LoCoMo session and in batches of 64, first start (a new
process importing and loading the model), cosine of each turn's two vectors, and hybrid
search recall@5/10/20 on LoCoMo (categories 1-4, as ``bench_locomo`` asks them: each turn
a chunk "Speaker: text" with its metadata, one memory per session, no graph)."""

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from django.conf import settings
from django.core.management.base import CommandError
from django.test import override_settings

from bench.locomo import LOCOMO_DIR, conversations, evidence_ids, sessions, turn_chunk
from bench.management.commands.bench_writes import embedded_texts, locomo_batches
from bench.measure import BenchCommand, percentiles
from memoryhub.providers import embeddings
from memoryhub.services.workers import worker_create, worker_delete
from tiers.memory_graph import NoGraph, memory_graph, plug_memory_graph
from tiers.search import search, search_params
from tiers.services.shortterm import shortterm_memory_create

RUNTIMES = ("torch", "onnx-int8")
CATEGORIES = (1, 2, 3, 4)
KS = (5, 10, 20)
FIRST_START = """
import os, time
started = time.perf_counter()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")
import django
django.setup()
from memoryhub.providers.embeddings import build_provider
from django.conf import settings
config = {**settings.MEMORYHUB_EMBEDDINGS, "provider": "local", "runtime": %r}
build_provider(config).embed_documents(["warm", "up"])
print(time.perf_counter() - started)
"""


def _config(runtime: str) -> dict:
    return {
        **settings.MEMORYHUB_EMBEDDINGS,
        "provider": "local",
        "runtime": runtime,
        "precision": "fp32",
    }


class Command(BenchCommand):
    help = "torch vs int8 ONNX for the local model: speed, first start, cosines, LoCoMo recall."

    def add_arguments(self, parser):
        parser.add_argument("--data", default=str(LOCOMO_DIR), help="folder of LoCoMo JSON files")
        parser.add_argument("--conversations", nargs="*", help="file stems, e.g. 26 30")
        parser.add_argument("--sentences", type=int, default=200, help="timed one by one")
        parser.add_argument("--starts", type=int, default=3, help="first starts per runtime")
        parser.add_argument("--no-recall", action="store_true")
        parser.add_argument("--json", help="also write the figures to this file")

    def handle(self, *args, **options):
        try:
            batches = locomo_batches(Path(options["data"]), options["conversations"])
        except FileNotFoundError as exc:
            raise CommandError(f"--data: {exc}") from exc
        sessions_texts = [embedded_texts(b["chunks"]) for b in batches]
        texts = [t for session in sessions_texts for t in session]
        providers = {r: embeddings.build_provider(_config(r)) for r in RUNTIMES}
        report: dict = {"turns": len(texts), "runtimes": {r: {} for r in RUNTIMES}}
        self.log(f"{len(texts)} LoCoMo turns in {len(batches)} sessions; torch in fp32")

        # First start: a new process each time, the runtimes in turn.
        starts = {r: [] for r in RUNTIMES}
        for _ in range(options["starts"]):
            for runtime in RUNTIMES:
                out = subprocess.run(
                    [sys.executable, "-c", FIRST_START % runtime],
                    cwd=settings.BASE_DIR,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                starts[runtime].append(float(out.stdout.strip().splitlines()[-1]))
        for runtime in RUNTIMES:
            providers[runtime].embed_documents(texts[:64])  # loaded before timing
        # One sentence at a time, then per session, then batches of 64: in turn.
        single = {r: [] for r in RUNTIMES}
        for text in texts[: options["sentences"]]:
            for runtime in RUNTIMES:
                started = time.perf_counter()
                providers[runtime].embed_documents([text])
                single[runtime].append((time.perf_counter() - started) * 1000)
        seconds = {(r, shape): 0.0 for r in RUNTIMES for shape in ("session", "64")}
        vectors = {r: [] for r in RUNTIMES}
        for session in sessions_texts:
            for runtime in RUNTIMES:
                started = time.perf_counter()
                vectors[runtime].append(providers[runtime].embed_documents(session))
                seconds[(runtime, "session")] += time.perf_counter() - started
        for start in range(0, len(texts), 64):
            for runtime in RUNTIMES:
                started = time.perf_counter()
                providers[runtime].embed_documents(texts[start : start + 64])
                seconds[(runtime, "64")] += time.perf_counter() - started
        cosines = np.sum(np.vstack(vectors["torch"]) * np.vstack(vectors["onnx-int8"]), axis=1)
        report["cosine"] = {
            "min": float(cosines.min()),
            "p1": float(np.percentile(cosines, 1)),
            "mean": float(cosines.mean()),
        }
        for runtime in RUNTIMES:
            report["runtimes"][runtime].update(
                first_start_s=float(np.median(starts[runtime])),
                sentence_ms=percentiles(single[runtime]),
                session_turns_per_s=len(texts) / seconds[(runtime, "session")],
                batch64_turns_per_s=len(texts) / seconds[(runtime, "64")],
            )
        if not options["no_recall"]:
            for runtime in RUNTIMES:
                report["runtimes"][runtime]["recall"] = self._recall(runtime, options)
        self._print(report)
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(report, indent=2))

    def _recall(self, runtime: str, options) -> dict:
        found = {k: [] for k in KS}
        graph = memory_graph()
        plug_memory_graph(NoGraph())  # search ranks without it; saves the extraction's time
        try:
            with override_settings(MEMORYHUB_EMBEDDINGS=_config(runtime)):
                for path, data, conversation in conversations(
                    Path(options["data"]), options["conversations"]
                ):
                    worker = worker_create(
                        name=f"bench-embeddings-{runtime}-{path.stem}", description="safe to delete"
                    )
                    try:
                        for number, when, turns in sessions(conversation):
                            shortterm_memory_create(
                                worker=worker,
                                title=f"Session {number}",
                                chunks=[
                                    turn_chunk(t, number, when, style="speaker") for t in turns
                                ],
                            )
                        for question in data.get("qa") or conversation.get("qa") or []:
                            evidence = evidence_ids(question.get("evidence") or [])
                            if question.get("category") not in CATEGORIES or not evidence:
                                continue
                            hits = search(
                                worker=worker,
                                params=search_params(
                                    query=str(question["question"]), mode="hybrid", limit=max(KS)
                                ),
                            )
                            ranked = [h.metadata.get("dia_id") for h in hits]
                            for k in KS:
                                found[k].append(len(evidence & set(ranked[:k])) / len(evidence))
                    finally:
                        worker_delete(worker=worker)
        finally:
            plug_memory_graph(graph)
        return {f"recall@{k}": float(np.mean(found[k])) for k in KS} | {"questions": len(found[10])}

    def _print(self, r: dict) -> None:
        self.log(f"\n{'':28s} {'torch fp32':>14s} {'int8 ONNX':>14s}")
        rows = [
            ("first start (s, median)", lambda x: f"{x['first_start_s']:.2f}"),
            ("one sentence p50 (ms)", lambda x: f"{x['sentence_ms']['p50']:.1f}"),
            ("one sentence p95 (ms)", lambda x: f"{x['sentence_ms']['p95']:.1f}"),
            ("per session (turns/s)", lambda x: f"{x['session_turns_per_s']:.1f}"),
            ("batches of 64 (turns/s)", lambda x: f"{x['batch64_turns_per_s']:.1f}"),
        ]
        if "recall" in r["runtimes"]["torch"]:
            rows += [
                (f"hybrid recall@{k}", lambda x, k=k: f"{x['recall'][f'recall@{k}']:.3f}")
                for k in KS
            ]
        for label, cell in rows:
            self.log(
                f"{label:28s} {cell(r['runtimes']['torch']):>14s} "
                f"{cell(r['runtimes']['onnx-int8']):>14s}"
            )
        c = r["cosine"]
        self.log(
            f"cosine torch · int8 over {r['turns']} turns: min {c['min']:.4f}, "
            f"1st percentile {c['p1']:.4f}, mean {c['mean']:.5f}"
        )
