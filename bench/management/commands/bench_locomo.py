"""Retrieval quality on LoCoMo: each conversation is one worker, each turn one chunk
(``dia_id`` in metadata); category 1-4 questions are asked and the evidence turns must
come back. Prints recall@5/10/20 and MRR per search mode."""

import json
from pathlib import Path

import numpy as np
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from bench import locomo
from bench.locomo import conversations
from memoryhub.models import Worker
from memoryhub.progress import Progress
from memoryhub.services.workers import worker_create, worker_delete
from tiers.search import search, search_params
from tiers.services.shortterm import shortterm_memory_create

MODES = ("vector", "bm25", "hybrid")
KS = (5, 10, 20)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


class Command(BaseCommand):
    help = "LoCoMo retrieval benchmark: recall@5/10/20 and MRR for vector, bm25 and hybrid search."

    def add_arguments(self, parser):
        parser.add_argument(
            "--data", default=str(locomo.LOCOMO_DIR), help="folder of LoCoMo JSON files"
        )
        parser.add_argument(
            "--keep", action="store_true", help="keep the benchmark workers afterwards"
        )
        parser.add_argument("--json", help="also write the figures to this file")
        parser.add_argument(
            "--sweep",
            action="store_true",
            help="also print hybrid recall@10 over a grid of fusion weights and RRF k",
        )

    def handle(self, *args, **options):
        try:
            found = conversations(Path(options["data"]))
        except FileNotFoundError as exc:
            raise CommandError(str(exc)) from exc
        per_mode = {
            mode: {"recall": {k: [] for k in KS}, "rr": [], "by_category": {}} for mode in MODES
        }
        rankings: list[tuple[set, list, list]] = []  # (evidence, vector ranking, bm25 ranking)
        for path, data, conversation in found:
            qa = data.get("qa") or conversation.get("qa") or []
            name = f"locomo-{path.stem}"
            existing = Worker.objects.filter(name=name).first()
            if existing:
                worker_delete(worker=existing)
            worker = worker_create(
                name=name, description=f"LoCoMo conversation {path.stem} (benchmark)"
            )
            sessions = list(locomo.sessions(conversation))
            turn_count = sum(len(turns) for _, _, turns in sessions)
            progress = Progress(turn_count, f"ingest {path.name}", stream=self.stderr._out)
            for number, when, turns in sessions:
                shortterm_memory_create(
                    worker=worker,
                    title=f"Session {number} ({when})",
                    chunks=[
                        {
                            "content": locomo.turn_text(t, when),
                            "metadata": {"dia_id": t["dia_id"], "session": number, "date": when},
                        }
                        for t in turns
                    ],
                )
                progress.advance(len(turns))
            progress.finish()
            with connection.cursor() as cursor:  # fresh statistics, as autovacuum would give
                cursor.execute(
                    "ANALYZE tiers_shorttermchunk; ANALYZE tiers_bm25posting; "
                    "ANALYZE tiers_bm25term"
                )
            questions = [q for q in qa if q.get("category") in CATEGORIES and q.get("evidence")]
            progress = Progress(
                len(questions) * len(MODES), f"questions {path.name}", stream=self.stderr._out
            )
            for question in questions:
                evidence = {e.strip() for e in question["evidence"]}
                for mode in MODES:
                    hits = search(
                        worker=worker,
                        params=search_params(
                            query=str(question["question"]),
                            mode=mode,
                            limit=20,
                            candidates=100 if mode != "hybrid" else None,
                        ),
                    )
                    ranked = [h.metadata.get("dia_id") for h in hits]
                    stats = per_mode[mode]
                    for k in KS:
                        found = len(evidence & set(ranked[:k])) / len(evidence)
                        stats["recall"][k].append(found)
                        stats["by_category"].setdefault(question["category"], []).append(
                            found
                        ) if k == 10 else None
                    first = next((i for i, d in enumerate(ranked, start=1) if d in evidence), None)
                    stats["rr"].append(1.0 / first if first else 0.0)
                    progress.advance()
                if options["sweep"]:
                    rankings.append(
                        (evidence, *self._full_rankings(worker, str(question["question"])))
                    )
            progress.finish()
            self.stdout.write(
                f"{path.name}: {turn_count} turns, {len(questions)} questions (categories 1-4)"
            )
            if not options["keep"]:
                worker_delete(worker=worker)

        report = {}
        self.stdout.write("")
        self.stdout.write(
            f"{'mode':8s} {'recall@5':>9s} {'recall@10':>10s} {'recall@20':>10s} {'MRR':>7s}   "
            + "  ".join(f"r@10 {CATEGORIES[c]}" for c in CATEGORIES)
        )
        for mode in MODES:
            stats = per_mode[mode]
            row = {f"recall@{k}": float(np.mean(stats["recall"][k])) for k in KS}
            row["mrr"] = float(np.mean(stats["rr"]))
            row["recall@10_by_category"] = {
                CATEGORIES[c]: float(np.mean(v)) for c, v in sorted(stats["by_category"].items())
            }
            report[mode] = row
            by_category = row["recall@10_by_category"]
            self.stdout.write(
                f"{mode:8s} {row['recall@5']:9.3f} {row['recall@10']:10.3f} "
                f"{row['recall@20']:10.3f} {row['mrr']:7.3f}   "
                + "  ".join(
                    f"{by_category.get(CATEGORIES[c], float('nan')):>{len(CATEGORIES[c]) + 5}.3f}"
                    for c in CATEGORIES
                )
            )
        best_single = max(report["vector"]["recall@10"], report["bm25"]["recall@10"])
        verdict = "beats" if report["hybrid"]["recall@10"] > best_single else "does NOT beat"
        self.stdout.write(
            f"\nhybrid recall@10 {report['hybrid']['recall@10']:.3f} {verdict} "
            f"the best single mode ({best_single:.3f})"
        )
        if options["sweep"]:
            self._sweep(rankings)
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(report, indent=2))

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
