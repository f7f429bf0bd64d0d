"""Fit the parser extractor's thing finder on the labelled development texts and write
``graph/extraction/parser/things.json``; ``--hold-out N`` first reports the extractor's
figures on the N newest files with and without a finder fitted on the others."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bench.entity_typer import load_dev_files
from bench.extraction import SPLITS
from bench.thing_finder import fit_files, hold_out
from graph.extraction.parser import things


class Command(BaseCommand):
    help = (
        "Fit the parser's thing finder (lower-case things from context) on the development "
        "texts and write it beside the parser; --hold-out N reports the N newest files first."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--data", nargs="+", type=Path, help="labelled JSONL files (default: the dev split)"
        )
        parser.add_argument("--l2", type=float, default=things.L2)
        parser.add_argument("--steps", type=int, default=things.STEPS)
        parser.add_argument(
            "--hold-out", type=int, default=0, metavar="N", help="score the N newest files first"
        )
        parser.add_argument("--dry-run", action="store_true", help="do not write the model")

    def handle(self, *args, **options):
        paths = options["data"] or list(SPLITS["dev"])
        if options["steps"] < 1 or options["l2"] < 0:
            raise CommandError("--steps: at least 1; --l2: not negative")
        try:
            files = load_dev_files(paths, stream=self.stderr)
        except ValueError as exc:
            raise CommandError(f"--data: {exc}") from exc
        settings = {"l2": options["l2"], "steps": options["steps"]}
        if options["hold_out"]:
            try:
                figures = hold_out(files, options["hold_out"], stream=self.stderr, **settings)
            except ValueError as exc:
                raise CommandError(f"--hold-out: {exc}") from exc
            held = ", ".join(f.name for f in files[-options["hold_out"] :])
            self.stdout.write(f"held out {held}: entity F1 (with types), relationship F1")
            for key, row in figures.items():
                shown = "without" if key == "without" else f"add at {key}"
                self.stdout.write(
                    f"  {shown:12s} {row['entities_f1']:.4f}  {row['relationships_f1']:.4f}"
                )
        model = fit_files(files, stream=self.stderr, **settings)
        named = sum(1 for label in model["classes"] if label != things.NONE)
        self.stdout.write(
            f"fitted on {model['examples']} phrases from {len(files)} files: "
            f"{named} types, {len(model['weights'])} features"
        )
        if not options["dry_run"]:
            things.MODEL.write_text(json.dumps(model, separators=(",", ":")) + "\n")
            things.shipped.cache_clear()
            self.stdout.write(f"wrote {things.MODEL}")
