"""Fit the parser extractor's relation linker on the labelled development texts and write
``graph/extraction/parser/relation_pairs.json``; ``--cross-validate`` first reports, per
file held out in turn, the relationship figures without it and with it at each threshold."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bench.entity_typer import load_dev_files
from bench.extraction import SPLITS
from bench.relation_linker import THRESHOLDS, cross_validate, fit_files, vocabulary
from graph.extraction.parser import linker, vectors
from memoryhub.progress import Progress


class Command(BaseCommand):
    help = (
        "Fit the parser's relation linker (relationships from the words joining two names) "
        "on the development texts and write it beside the parser; --cross-validate reports "
        "each file held out in turn."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--data", nargs="+", type=Path, help="labelled JSONL files (default: the dev split)"
        )
        parser.add_argument("--l2", type=float, default=linker.L2)
        parser.add_argument("--steps", type=int, default=linker.STEPS)
        parser.add_argument(
            "--add", type=float, default=linker.ADD, help="probability to add a relationship"
        )
        parser.add_argument(
            "--cross-validate", action="store_true", help="hold out each file in turn first"
        )
        parser.add_argument(
            "--clusters",
            action="store_true",
            help=(
                "first refit the word groups on the files' words (word_clusters.json); "
                "refit the entity typer after, it reads them too"
            ),
        )
        parser.add_argument("--dry-run", action="store_true", help="do not write the model")

    def handle(self, *args, **options):
        paths = options["data"] or list(SPLITS["dev"])
        if not 0 < options["add"] <= 1:
            raise CommandError("--add: a probability above 0 and at most 1")
        try:
            files = load_dev_files(paths, stream=self.stderr)
        except ValueError as exc:
            raise CommandError(f"--data: {exc}") from exc
        settings = {"l2": options["l2"], "steps": options["steps"]}
        if options["clusters"]:
            words = vocabulary(files)
            self.stderr.write(f"grouping {len(words)} words into {vectors.CLUSTER_COUNT} groups")
            vectors.save_clusters(vectors.fit_clusters(words), write=not options["dry_run"])
            if not options["dry_run"]:
                self.stdout.write(f"wrote {vectors.CLUSTERS}")
        if options["cross_validate"]:
            if len(files) < 2:
                raise CommandError("--cross-validate: needs at least two files")
            self._cross_validate(files, settings)
        model = fit_files(files, add=options["add"], **settings)
        positives = sum(1 for label in model["classes"] if label != linker.NONE)
        self.stdout.write(
            f"fitted on {model['examples']} pairs of names from "
            f"{', '.join(f.name for f in files)}: {positives} relationship labels, "
            f"{len(model['weights'])} features"
        )
        if not options["dry_run"]:
            linker.MODEL.write_text(json.dumps(model, separators=(",", ":")) + "\n")
            linker.shipped.cache_clear()
            self.stdout.write(f"wrote {linker.MODEL}")

    def _cross_validate(self, files, settings):
        self.stdout.write(
            "relationship F1 per file held out: without the linker, then with it adding at "
            "each probability"
        )
        self.stdout.write(
            f"{'file':12s} {'without':>8s} " + " ".join(f"{t:>6.2f}" for t in THRESHOLDS)
        )
        progress = Progress(len(files), "folds", stream=self.stderr)
        totals = {"without": 0.0, **{t: 0.0 for t in THRESHOLDS}}

        def report(row):
            progress.advance()
            totals["without"] += row["without"]["f1"]
            for t in THRESHOLDS:
                totals[t] += row["with"][t]["f1"]
            self.stdout.write(
                f"{row['file']:12s} {row['without']['f1']:8.3f} "
                + " ".join(f"{row['with'][t]['f1']:6.3f}" for t in THRESHOLDS)
            )

        cross_validate(files, on_file=report, **settings)
        progress.finish()
        n = len(files)
        self.stdout.write(
            f"{'mean':12s} {totals['without'] / n:8.3f} "
            + " ".join(f"{totals[t] / n:6.3f}" for t in THRESHOLDS)
        )
