"""Retrieval quality on LoCoMo: each conversation is one worker, each turn one chunk stored
as an agent keeps a conversation ("Speaker: text as said"; ``dia_id``, ``session``,
``session_date`` and ``speaker`` in metadata, the date not in the text); category 1-4
questions are asked and the evidence turns must come back. Prints recall@5/10/20, MRR@20
and search latency (p50/p95) per mode and per question category, in-process or through
the HTTP API."""

import json
import time
from pathlib import Path

import numpy as np
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from bench import locomo
from bench.measure import http_server, percentiles, post_json
from memoryhub.models import Worker
from memoryhub.progress import Progress
from memoryhub.providers import embeddings
from memoryhub.services.workers import token_issue, worker_create, worker_delete
from tiers.search import search, search_params
from tiers.search.index import bm25_reindex_worker
from tiers.services.shortterm import shortterm_memory_create

MODES = ("vector", "bm25", "hybrid")
KS = (5, 10, 20)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def _option(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` with a JSON value (a bare word is a string)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise CommandError(f"--search-option wants KEY=VALUE, not {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


class Command(BaseCommand):
    help = (
        "LoCoMo retrieval benchmark: recall@5/10/20, MRR@20 and latency per mode and per "
        "question category, in-process or through the HTTP API."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--data", default=str(locomo.LOCOMO_DIR), help="folder of LoCoMo JSON files"
        )
        parser.add_argument(
            "--conversation",
            action="append",
            help="only this conversation (file name without .json: 26, 30); repeatable",
        )
        parser.add_argument(
            "--date-in-text",
            action="store_true",
            help="store turns the earlier way, 'Speaker (date): text' (a separate worker)",
        )
        parser.add_argument(
            "--text-only",
            action="store_true",
            help="store the words of each turn alone, the speaker in metadata only "
            "(a separate worker)",
        )
        parser.add_argument(
            "--keep", action="store_true", help="keep the benchmark workers afterwards"
        )
        parser.add_argument(
            "--reuse",
            action="store_true",
            help="ask the questions of workers kept by an earlier --keep run (same storage), "
            "re-indexing their BM25 postings, instead of ingesting again; implies --keep",
        )
        parser.add_argument("--mode", action="append", choices=MODES, help="only this mode")
        parser.add_argument(
            "--search-option",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="a search parameter for every query (JSON value), e.g. bm25_weight=1.5",
        )
        parser.add_argument(
            "--http",
            action="store_true",
            help="ask through the HTTP API (gunicorn on loopback, shortterm search endpoint)",
        )
        parser.add_argument("--json", help="also write the figures to this file")
        parser.add_argument(
            "--sweep",
            action="store_true",
            help="also print hybrid recall@10 over a grid of fusion weights and RRF k",
        )
        parser.add_argument(
            "--misses",
            type=int,
            default=0,
            metavar="N",
            help="print up to N hybrid questions whose evidence misses the top 10",
        )

    def handle(self, *args, **options):
        try:
            found = locomo.conversations(Path(options["data"]), options["conversation"])
        except FileNotFoundError as exc:
            raise CommandError(str(exc)) from exc
        style = (
            "date-in-text"
            if options["date_in_text"]
            else "text-only"
            if options["text_only"]
            else "speaker"
        )
        modes = tuple(m for m in MODES if m in (options["mode"] or MODES))
        extra = dict(_option(text) for text in options["search_option"])
        keep = options["keep"] or options["reuse"]
        stats = {mode: {} for mode in modes}  # mode → category → {"recall": {k: []}, ...}
        rankings: list[tuple[set, list, list]] = []  # (evidence, vector ranking, bm25 ranking)
        misses = []
        workers, asked = [], []
        for path, data, conversation in found:
            worker = self._worker(path, conversation, style, reuse=options["reuse"])
            workers.append(worker)
            qa = data.get("qa") or conversation.get("qa") or []
            questions = [
                q
                for q in qa
                if q.get("category") in CATEGORIES and locomo.evidence_ids(q.get("evidence") or [])
            ]
            asked.append((path, worker, questions))

        def run(ask):
            for path, worker, questions in asked:
                progress = Progress(
                    len(questions) * len(modes), f"questions {path.name}", stream=self.stderr._out
                )
                for question in questions:
                    evidence = locomo.evidence_ids(question["evidence"])
                    text = str(question["question"])
                    for mode in modes:
                        embeddings._query_cache.clear()  # each query embedded, as new
                        started = time.perf_counter()
                        ranked = ask(worker, text, mode)
                        elapsed = (time.perf_counter() - started) * 1000
                        self._score(stats[mode], question["category"], evidence, ranked, elapsed)
                        if mode == "hybrid" and not evidence & set(ranked[:10]):
                            misses.append((path.stem, question, ranked[:10]))
                        progress.advance()
                    if options["sweep"]:
                        rankings.append((evidence, *self._full_rankings(worker, text)))
                progress.finish()
                self.stdout.write(f"{path.name}: {len(questions)} questions (categories 1-4)")

        if options["http"]:
            self._run_http(run, workers, extra)
        else:
            run(
                lambda worker, text, mode: [
                    h.metadata.get("dia_id")
                    for h in search(
                        worker=worker,
                        params=search_params(query=text, mode=mode, limit=max(KS), **extra),
                    )
                ]
            )
        if not keep:
            for worker in workers:
                worker_delete(worker=worker)

        report = self._report(stats, style, options, extra)
        if options["misses"]:
            self.stdout.write("\nhybrid misses (evidence not in the top 10):")
            for stem, question, top in misses[: options["misses"]]:
                self.stdout.write(
                    f"  [{stem} {CATEGORIES[question['category']]}] {question['question']} "
                    f"evidence {sorted(locomo.evidence_ids(question['evidence']))} top {top}"
                )
        if options["sweep"]:
            self._sweep(rankings)
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(report, indent=2))

    def _worker(self, path: Path, conversation: dict, style: str, *, reuse: bool) -> Worker:
        """The conversation's worker: ingested now, or (``reuse``) kept from an earlier run
        with the same storage, its BM25 postings rebuilt with the current indexing."""
        name = f"locomo-{path.stem}-{style}"
        description = f"LoCoMo conversation {path.stem} (benchmark, turns stored: {style})"
        existing = Worker.objects.filter(name=name).first()
        if reuse and existing is not None and existing.description == description:
            started = time.perf_counter()
            count = bm25_reindex_worker(tier="shortterm", worker_id=existing.pk)
            seconds = time.perf_counter() - started
            self.stderr.write(f"{name}: reused, {count} chunks re-indexed in {seconds:.1f} s")
            self._analyze()
            return existing
        if existing is not None:
            worker_delete(worker=existing)
        worker = worker_create(name=name, description=description)
        sessions = list(locomo.sessions(conversation))
        turn_count = sum(len(turns) for _, _, turns in sessions)
        progress = Progress(turn_count, f"ingest {path.name}", stream=self.stderr._out)
        for number, when, turns in sessions:
            shortterm_memory_create(
                worker=worker,
                title=f"Session {number}",
                metadata={"session": number, "session_date": locomo.session_date(when) or when},
                chunks=[locomo.turn_chunk(t, number, when, style=style) for t in turns],
            )
            progress.advance(len(turns))
        progress.finish()
        self._analyze()
        return worker

    @staticmethod
    def _analyze() -> None:
        with connection.cursor() as cursor:  # fresh statistics, as autovacuum would give
            cursor.execute(
                "ANALYZE tiers_shorttermchunk; ANALYZE tiers_bm25posting; ANALYZE tiers_bm25term"
            )

    def _run_http(self, run, workers, extra) -> None:
        """The questions through the shortterm search endpoint, as an agent sends them with
        the Python client (``memoryhub.client``; its default options: the hits' graphs
        included). Search options the client does not name go as a plain POST."""
        from memoryhub.client import MemoryHub

        keys = {worker.pk: token_issue(worker=worker, name="bench_locomo")[1] for worker in workers}
        with http_server(settings.BASE_DIR) as base:
            clients = {pk: MemoryHub(base, key) for pk, key in keys.items()}

            def ask(worker, text, mode):
                if extra:
                    body = {"query": text, "mode": mode, "limit": max(KS), **extra}
                    url = f"{base}/api/v1/workers/{worker.pk}/search/shortterm"
                    response = post_json(url, body, keys[worker.pk])
                else:
                    response = clients[worker.pk].search_shortterm(text, mode=mode, limit=max(KS))
                return [hit["metadata"].get("dia_id") for hit in response["results"]]

            try:
                for worker in workers:  # warm the server's model and connections
                    for mode in MODES:
                        ask(worker, "warm up question", mode)
                run(ask)
            finally:
                for client in clients.values():
                    client.close()

    @staticmethod
    def _score(by_category: dict, category: int, evidence: set, ranked: list, ms: float):
        entry = by_category.setdefault(
            category, {"recall": {k: [] for k in KS}, "rr": [], "ms": []}
        )
        for k in KS:
            entry["recall"][k].append(len(evidence & set(ranked[:k])) / len(evidence))
        first = next((i for i, d in enumerate(ranked, start=1) if d in evidence), None)
        entry["rr"].append(1.0 / first if first else 0.0)
        entry["ms"].append(ms)

    def _report(self, stats: dict, style: str, options: dict, extra: dict) -> dict:
        report = {
            "storage": style,
            "through": "http" if options["http"] else "service",
            "conversations": options["conversation"] or "all",
            "search_options": extra,
            "modes": {},
        }
        self.stdout.write(
            f"\nturns stored: {style}; through {report['through']}; search options {extra or '-'}"
        )
        self.stdout.write(
            f"{'mode':7s} {'category':12s} {'n':>4s} {'r@5':>6s} {'r@10':>6s} {'r@20':>6s} "
            f"{'MRR@20':>7s} {'p50 ms':>7s} {'p95 ms':>7s}"
        )
        for mode, by_category in stats.items():
            groups = [(CATEGORIES[c], [by_category[c]]) for c in sorted(by_category)]
            groups.append(("all", list(by_category.values())))
            rows = {}
            for label, entries in groups:
                recall = {
                    k: float(np.mean([x for e in entries for x in e["recall"][k]])) for k in KS
                }
                rr = [x for e in entries for x in e["rr"]]
                latency = percentiles([x for e in entries for x in e["ms"]])
                rows[label] = {
                    **{f"recall@{k}": recall[k] for k in KS},
                    "mrr@20": float(np.mean(rr)),
                    "n": len(rr),
                    "p50_ms": latency["p50"],
                    "p95_ms": latency["p95"],
                }
                self.stdout.write(
                    f"{mode:7s} {label:12s} {len(rr):4d} {recall[5]:6.3f} {recall[10]:6.3f} "
                    f"{recall[20]:6.3f} {np.mean(rr):7.3f} {latency['p50']:7.1f} "
                    f"{latency['p95']:7.1f}"
                )
            report["modes"][mode] = rows
        if {"vector", "bm25", "hybrid"} <= set(stats):
            best_single = max(report["modes"][m]["all"]["recall@10"] for m in ("vector", "bm25"))
            hybrid = report["modes"]["hybrid"]["all"]["recall@10"]
            verdict = "beats" if hybrid > best_single else "does NOT beat"
            self.stdout.write(
                f"\nhybrid recall@10 {hybrid:.3f} {verdict} "
                f"the best single mode ({best_single:.3f})"
            )
        return report

    @staticmethod
    def _full_rankings(worker, question: str) -> tuple[list, list]:
        lists = []
        for mode in ("vector", "bm25"):
            hits = search(
                worker=worker,
                params=search_params(query=question, mode=mode, limit=100, candidates=100),
            )
            lists.append([h.metadata.get("dia_id") for h in hits])
        return lists[0], lists[1]

    def _sweep(self, rankings) -> None:
        self.stdout.write(
            "\nhybrid recall@10 by bm25 weight (vector weight 1) and RRF k, candidates 60:"
        )
        weights, ks = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0), (10, 20, 40, 60, 100)
        self.stdout.write("  k / w_bm25 " + "".join(f"{w:>7}" for w in weights))
        for k in ks:
            row = []
            for w in weights:
                recalls = []
                for evidence, vector, bm25 in rankings:
                    scores: dict = {}
                    for ranked, weight in ((vector[:60], 1.0), (bm25[:60], w)):
                        for position, doc in enumerate(ranked, start=1):
                            scores[doc] = scores.get(doc, 0.0) + weight / (k + position)
                    top = sorted(scores, key=lambda d: -scores[d])[:10]
                    recalls.append(len(evidence & set(top)) / len(evidence))
                row.append(float(np.mean(recalls)))
            self.stdout.write(f"  {k:>11} " + "".join(f"{r:7.3f}" for r in row))
