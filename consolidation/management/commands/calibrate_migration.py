"""Calibrate the migration's decision on labelled pairs (issue 5): each pair is an existing
chunk and an incoming section labelled merge / conflict / new. The pair's cosine
similarity comes from the configured embedder, the graphs from the configured extractor;
then the same ``decide`` the migration uses runs over a grid of thresholds. Prints
precision / recall / F1 of "conflict", accuracy over merge / conflict / new, the confusion
matrix and accuracy per kind of pair, for the current settings and the best of the grid."""

import itertools
import json
from pathlib import Path

import numpy as np
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from consolidation import calibration
from consolidation.decision import assess_candidate, decide
from graph.extraction import get_extractor
from memoryhub.progress import Progress
from memoryhub.providers.embeddings import get_embedder
from memoryhub.providers.judge_embeddings import judge_embedder_status

DEFAULT_PAIRS = Path(__file__).resolve().parents[3] / "tests" / "data" / "migration_pairs.jsonl"
LABELS = calibration.LABELS
OUTCOME_LABEL = {"merged": "merge", "conflict": "conflict", "created": "new"}
GRID = {
    "candidate_similarity": [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85],
    "high_similarity": [0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 1.01],
    "min_entity_overlap": [0.3, 0.5, 0.7],
    "other_subject_outcome": ["created", "conflict"],
}


def load_pairs(path: Path) -> list[dict]:
    try:
        return calibration.load_pairs(path)
    except calibration.PairsError as exc:
        raise CommandError(str(exc)) from exc


def score(pairs: list[dict], predicted: list[str]) -> dict:
    return calibration.score([p["label"] for p in pairs], predicted)


def predict(prepared: list[dict], config: dict) -> list[str]:
    """The label ``decide`` gives each pair under ``config``. ``prepared`` holds, per pair,
    the candidate assessed once per (high_similarity, min_entity_overlap)."""
    out = []
    for item in prepared:
        candidate = item["assessed"][(config["high_similarity"], config["min_entity_overlap"])]
        out.append(OUTCOME_LABEL[decide([candidate], config)["outcome"]])
    return out


class Command(BaseCommand):
    help = (
        "Calibrate the migration thresholds on labelled pairs: conflict P/R/F1 and "
        "merge/conflict/new accuracy."
    )

    def add_arguments(self, parser):
        parser.add_argument("--pairs", default=str(DEFAULT_PAIRS), help="JSONL of labelled pairs")
        parser.add_argument("--json", help="also write the figures to this file")
        parser.add_argument(
            "--errors", action="store_true", help="list the pairs the current settings get wrong"
        )

    def handle(self, *args, **options):
        path = Path(options["pairs"])
        pairs = load_pairs(path)
        current = dict(settings.MEMORYHUB_MIGRATION)
        embedder, extractor = get_embedder(), get_extractor()
        per_label = ", ".join(
            f"{n} {label}" for label in LABELS if (n := sum(p["label"] == label for p in pairs))
        )
        self.stdout.write(
            f"{len(pairs)} labelled pairs from {path} ({per_label}); "
            f"embeddings: {embedder.name}, extractor: {settings.MEMORYHUB_GRAPH['extractor']}, "
            f"judge: {current.get('judge', 'claims')} "
            f"({judge_embedder_status()['active']} judge embedder)"
        )
        progress = Progress(len(pairs), "assess")
        prepared = calibration.prepare_pairs(
            pairs, embedder=embedder, extractor=extractor, on_pair=progress.advance
        )
        progress.finish()
        thresholds = list(
            itertools.product(
                set(GRID["high_similarity"]) | {current["high_similarity"]},
                set(GRID["min_entity_overlap"]) | {current["min_entity_overlap"]},
            )
        )
        for item in prepared:
            item["assessed"] = {}
            once = None  # the claim judge does not read these two thresholds: assess once
            for high, overlap in thresholds:
                if once is None or current.get("judge") == "rules":
                    once = assess_candidate(
                        content=item["pair"]["incoming"],
                        incoming_graph=item["incoming_graph"],
                        candidate={
                            "content": item["pair"]["existing"],
                            "similarity": item["similarity"],
                        },
                        existing_graph=item["existing_graph"],
                        config=current | {"high_similarity": high, "min_entity_overlap": overlap},
                    )
                item["assessed"][(high, overlap)] = once

        self._similarities(prepared)
        figures = {
            "pairs": len(pairs),
            "current": self._report(
                "current settings", pairs, prepared, current, errors=options["errors"]
            ),
        }
        results = []
        keys = list(GRID)
        for values in itertools.product(*(GRID[k] for k in keys)):
            config = current | dict(zip(keys, values, strict=True))
            results.append(
                (score(pairs, predict(prepared, config)), dict(zip(keys, values, strict=True)))
            )
        results.sort(
            key=lambda r: (r[0]["accuracy"], r[0]["f1"], -abs(r[1]["candidate_similarity"] - 0.6)),
            reverse=True,
        )
        self.stdout.write("\nBest settings of the grid (accuracy, then conflict F1):")
        self.stdout.write(
            f"  {'cand':>5} {'high':>5} {'ovl':>4} {'other':>8} | "
            f"{'acc':>5} {'P':>5} {'R':>5} {'F1':>5}"
        )
        for result, config in results[:8]:
            self.stdout.write(
                f"  {config['candidate_similarity']:>5.2f} {config['high_similarity']:>5.2f} "
                f"{config['min_entity_overlap']:>4.1f} {config['other_subject_outcome']:>8} | "
                f"{result['accuracy']:.3f} {result['precision']:.3f} "
                f"{result['recall']:.3f} {result['f1']:.3f}"
            )
        self.stdout.write("\nCandidate threshold alone (other settings as configured):")
        for threshold in GRID["candidate_similarity"]:
            result = score(pairs, predict(prepared, current | {"candidate_similarity": threshold}))
            self.stdout.write(
                f"  {threshold:.2f}: accuracy {result['accuracy']:.3f}, "
                f"conflict P {result['precision']:.3f} "
                f"R {result['recall']:.3f} F1 {result['f1']:.3f}"
            )
        best_config = current | results[0][1]
        figures["best"] = self._report("best of the grid", pairs, prepared, best_config) | {
            "settings": results[0][1]
        }
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(figures, indent=2))

    def _similarities(self, prepared: list[dict]) -> None:
        self.stdout.write("\nCosine similarity per kind of pair (min / median / max):")
        kinds: dict[str, list[float]] = {}
        for item in prepared:
            kinds.setdefault(f"{item['pair']['label']}/{item['pair']['kind']}", []).append(
                item["similarity"]
            )
        for kind, values in sorted(kinds.items()):
            self.stdout.write(
                f"  {kind:<24} n={len(values):>3}  "
                f"{min(values):.2f} / {float(np.median(values)):.2f} / {max(values):.2f}"
            )

    def _report(
        self,
        title: str,
        pairs: list[dict],
        prepared: list[dict],
        config: dict,
        errors: bool = False,
    ) -> dict:
        predicted = predict(prepared, config)
        result = score(pairs, predicted)
        shown = {k: config[k] for k in GRID}
        self.stdout.write(f"\n{title}: {json.dumps(shown)}")
        self.stdout.write(
            f"  conflict: precision {result['precision']:.3f}, recall {result['recall']:.3f}, "
            f"F1 {result['f1']:.3f}; accuracy merge/conflict/new {result['accuracy']:.3f}"
        )
        self.stdout.write(
            f"  confusion (rows: label, columns: decided)  {'  '.join(f'{c:>8}' for c in LABELS)}"
        )
        matrix = calibration.confusion([p["label"] for p in pairs], predicted)
        for label in LABELS:
            self.stdout.write(
                f"  {label:>39}  {'  '.join(f'{matrix[label][c]:>8}' for c in LABELS)}"
            )
        self.stdout.write(calibration.per_kind_line(pairs, predicted))
        if errors:
            for item, guess in zip(prepared, predicted, strict=True):
                pair = item["pair"]
                if guess != pair["label"]:
                    reasons = item["assessed"][
                        (config["high_similarity"], config["min_entity_overlap"])
                    ]["reasons"]
                    self.stdout.write(
                        f"  ✗ {pair['id']} {pair['label']}→{guess} sim {item['similarity']:.2f} "
                        f"{[r['code'] for r in reasons]}: "
                        f"{pair['existing']!r} / {pair['incoming']!r}"
                    )
        return result | {"confusion": matrix}
