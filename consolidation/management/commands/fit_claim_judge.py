"""Fit the claim judge (``consolidation/claim_judge.json``) on the development pairs and
report it, beside the shipped rules, on the held-out pairs."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from consolidation import calibration, claim_judge
from consolidation.calibration import PairsError, load_pairs, prepare_pairs, score
from graph.extraction import get_extractor
from memoryhub.progress import Progress
from memoryhub.providers.embeddings import get_embedder
from memoryhub.providers.judge_embeddings import get_judge_embedder

DATA = Path(settings.BASE_DIR) / "tests" / "data"
DEV = [
    DATA / "consolidation" / "pairs_dev.jsonl",
    DATA / "consolidation" / "pairs_dev2.jsonl",
    DATA / "consolidation" / "pairs_dev3.jsonl",
    DATA / "consolidation" / "pairs_dev4.jsonl",
    DATA / "consolidation" / "pairs_dev5.jsonl",
    DATA / "consolidation" / "pairs_dev6.jsonl",
    DATA / "consolidation" / "pairs_dev7.jsonl",
    DATA / "consolidation" / "pairs_dev8.jsonl",
    DATA / "consolidation" / "pairs_dev9.jsonl",
    DATA / "consolidation" / "pairs_dev10.jsonl",
    DATA / "consolidation" / "pairs_dev11.jsonl",
    DATA / "consolidation" / "pairs_dev12.jsonl",
    DATA / "consolidation" / "pairs_dev13.jsonl",
    DATA / "consolidation" / "pairs_dev14.jsonl",
    DATA / "consolidation" / "pairs_dev15.jsonl",
    DATA / "consolidation" / "pairs_dev16.jsonl",
    DATA / "consolidation" / "pairs_dev17.jsonl",
    DATA / "consolidation" / "pairs_dev18.jsonl",
    DATA / "consolidation" / "pairs_dev19.jsonl",
    DATA / "consolidation" / "pairs_dev20.jsonl",
    DATA / "consolidation" / "pairs_dev21.jsonl",
    DATA / "consolidation" / "pairs_dev22.jsonl",
    DATA / "consolidation" / "pairs_dev23.jsonl",
    DATA / "consolidation" / "pairs_dev24.jsonl",
    DATA / "consolidation" / "pairs_dev25.jsonl",
    DATA / "consolidation" / "pairs_dev26.jsonl",
    DATA / "consolidation" / "pairs_dev27.jsonl",
    DATA / "consolidation" / "pairs_dev28.jsonl",
    DATA / "consolidation" / "pairs_dev29.jsonl",
    DATA / "consolidation" / "pairs_dev30.jsonl",
    DATA / "consolidation" / "pairs_dev31.jsonl",
    DATA / "consolidation" / "pairs_dev32.jsonl",
    DATA / "consolidation" / "pairs_dev33.jsonl",
    DATA / "consolidation" / "pairs_dev34.jsonl",
    DATA / "consolidation" / "pairs_dev35.jsonl",
    DATA / "consolidation" / "pairs_dev36.jsonl",
    DATA / "consolidation" / "pairs_dev37.jsonl",
    DATA / "consolidation" / "pairs_dev38.jsonl",
    DATA / "consolidation" / "pairs_dev39.jsonl",
    DATA / "consolidation" / "pairs_dev40.jsonl",
    DATA / "consolidation" / "pairs_dev41.jsonl",
    DATA / "consolidation" / "pairs_dev42.jsonl",
    DATA / "consolidation" / "pairs_dev43.jsonl",
    DATA / "consolidation" / "pairs_dev44.jsonl",
    DATA / "consolidation" / "pairs_dev45.jsonl",
    DATA / "consolidation" / "pairs_dev46.jsonl",
    DATA / "consolidation" / "pairs_dev47.jsonl",
    DATA / "consolidation" / "pairs_dev48.jsonl",
    DATA / "consolidation" / "pairs_dev49.jsonl",
    DATA / "consolidation" / "pairs_dev50.jsonl",
    DATA / "consolidation" / "pairs_dev51.jsonl",
    DATA / "consolidation" / "pairs_dev52.jsonl",
    DATA / "consolidation" / "pairs_dev53.jsonl",
    DATA / "consolidation" / "pairs_dev54.jsonl",
    DATA / "consolidation" / "pairs_dev55.jsonl",
    DATA / "consolidation" / "pairs_dev56.jsonl",
    DATA / "consolidation" / "pairs_dev57.jsonl",
    DATA / "consolidation" / "pairs_dev58.jsonl",
    DATA / "consolidation" / "pairs_dev59.jsonl",
    DATA / "consolidation" / "pairs_dev60.jsonl",
    DATA / "consolidation" / "pairs_dev61.jsonl",
    DATA / "consolidation" / "pairs_dev62.jsonl",
    DATA / "consolidation" / "pairs_dev63.jsonl",
    DATA / "consolidation" / "pairs_dev64.jsonl",
    DATA / "consolidation" / "pairs_dev65.jsonl",
    DATA / "consolidation" / "pairs_dev66.jsonl",
    DATA / "consolidation" / "pairs_dev67.jsonl",
    DATA / "consolidation" / "pairs_dev68.jsonl",
    DATA / "consolidation" / "pairs_dev69.jsonl",
    DATA / "consolidation" / "pairs_dev70.jsonl",
    DATA / "consolidation" / "pairs_dev71.jsonl",
    DATA / "consolidation" / "pairs_dev72.jsonl",
    DATA / "consolidation" / "pairs_dev73.jsonl",
    DATA / "consolidation" / "pairs_dev74.jsonl",
    DATA / "consolidation" / "pairs_dev75.jsonl",
    DATA / "consolidation" / "pairs_dev76.jsonl",
    DATA / "consolidation" / "pairs_dev77.jsonl",
    DATA / "consolidation" / "pairs_dev78.jsonl",
    DATA / "consolidation" / "pairs_locomo.jsonl",
    DATA / "migration_pairs.jsonl",
]
HOLDOUT = [
    DATA / "consolidation" / "pairs_holdout.jsonl",
    DATA / "migration_pairs_holdout.jsonl",
]


class Command(BaseCommand):
    help = (
        "Fit the consolidation's claim judge on development pairs (never on a held-out "
        "file) and report conflict P/R/F1, accuracy and per-kind results on the held-out pairs."
    )

    def add_arguments(self, parser):
        parser.add_argument("--pairs", nargs="+", type=Path, help="development pairs (JSONL)")
        parser.add_argument("--evaluate", nargs="*", type=Path, help="held-out pairs (JSONL)")
        parser.add_argument(
            "--l2",
            type=float,
            default=claim_judge.L2,
            help=f"L2 shrinkage (default {claim_judge.L2})",
        )
        parser.add_argument(
            "--kind",
            choices=claim_judge.KINDS,
            default=claim_judge.MODEL_KIND,
            help="both models averaged, boosted trees or logistic regression "
            f"(default {claim_judge.MODEL_KIND})",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="report without writing claim_judge.json"
        )

    def handle(self, *args, **options):
        dev_files = options["pairs"] or DEV
        missing = [path.name for path in dev_files if not Path(path).exists()]
        if missing:  # a fit on fewer pairs than the shipped one would go unnoticed
            raise CommandError(f"--pairs: no such file: {', '.join(missing)}")
        held_files = options["evaluate"] if options["evaluate"] is not None else HOLDOUT
        for path in dev_files:
            if "holdout" in path.name:
                raise CommandError(f"--pairs: {path.name} is held out; fit on development pairs")
        try:
            dev = [pair for path in dev_files for pair in load_pairs(path)]
            held = {path.stem: load_pairs(path) for path in held_files if path.exists()}
        except PairsError as exc:
            raise CommandError(str(exc)) from exc
        if not dev:
            raise CommandError("--pairs: no development pairs")
        embedder, extractor = get_embedder(), get_extractor()
        judge_embedder = get_judge_embedder()
        self.stdout.write(
            f"fitting on {len(dev)} pairs from {', '.join(p.name for p in dev_files)}; "
            f"embeddings {embedder.name}, judge embedder "
            f"{judge_embedder.name if judge_embedder else 'storage'}, extractor {extractor.name}"
        )
        dev_signals = self._signals(dev, embedder, extractor, "dev")
        judge_file = claim_judge.fit_both(
            [s["features"] for s in dev_signals],
            [p["label"] for p in dev],
            l2=options["l2"],
            kind=options["kind"],
        )
        model = judge_file["models"][claim_judge.embedder_signature()]
        self._report("dev (fitted on)", dev, dev_signals, model)
        for name, pairs in held.items():
            signals = self._signals(pairs, embedder, extractor, name)
            self._report(f"{name} (held out)", pairs, signals, model)
        if not options["dry_run"]:
            claim_judge.save(judge_file)
            self.stdout.write(
                f"wrote {claim_judge.MODEL} (model {claim_judge.embedder_signature()})"
            )

    def _signals(self, pairs, embedder, extractor, label):
        progress = Progress(len(pairs), f"{label}: embed and extract", stream=self.stderr._out)
        prepared = prepare_pairs(
            pairs, embedder=embedder, extractor=extractor, on_pair=progress.advance
        )
        progress.finish()
        return [
            claim_judge.pair_signals(
                incoming=item["pair"]["incoming"],
                existing=item["pair"]["existing"],
                similarity=item["similarity"],
                incoming_graph=item["incoming_graph"],
                existing_graph=item["existing_graph"],
            )
            for item in prepared
        ]

    def _report(self, title, pairs, signals, model):
        predicted = [claim_judge.judge(s, model)["label"] for s in signals]
        labels = [p["label"] for p in pairs]
        result = score(labels, predicted)
        self.stdout.write(
            f"\n{title}: {len(pairs)} pairs; conflict P {result['precision']:.3f} "
            f"R {result['recall']:.3f} F1 {result['f1']:.3f}; accuracy {result['accuracy']:.3f}"
        )
        matrix = calibration.confusion(labels, predicted)
        self.stdout.write("  label \\ decided    merge conflict      new")
        for label in claim_judge.LABELS:
            row = "".join(f"{matrix[label][guess]:>9}" for guess in claim_judge.LABELS)
            self.stdout.write(f"  {label:<16}{row}")
        self.stdout.write(calibration.per_kind_line(pairs, predicted))
