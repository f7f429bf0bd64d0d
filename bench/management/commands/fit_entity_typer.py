"""Fit the parser extractor's learned entity typer on the labelled development texts and
write ``graph/extraction/parser/entity_types.json``; ``--cross-validate`` first reports,
per file held out in turn, the extractor's figures with and without it."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bench.entity_typer import cross_validate, fit_files, load_dev_files
from bench.extraction import SPLITS
from graph.extraction.parser import typer


class Command(BaseCommand):
    help = (
        "Fit the parser's entity typer (types from context) on the development texts and "
        "write it beside the parser; --cross-validate reports each file held out in turn."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--data", nargs="+", type=Path, help="labelled JSONL files (default: the dev split)"
        )
        parser.add_argument("--l2", type=float, default=typer.L2)
        parser.add_argument("--steps", type=int, default=typer.STEPS)
        parser.add_argument("--margin", type=float, default=typer.MARGIN)
        parser.add_argument(
            "--cross-validate", action="store_true", help="hold out each file in turn first"
        )
        parser.add_argument("--dry-run", action="store_true", help="do not write the model")

    def handle(self, *args, **options):
        paths = options["data"] or list(SPLITS["dev"])
        try:
            files = load_dev_files(paths, stream=self.stderr)
        except ValueError as exc:
            raise CommandError(f"--data: {exc}") from exc
        settings = {"l2": options["l2"], "steps": options["steps"]}
        if options["cross_validate"]:
            self.stdout.write("file held out      entity F1 (with types)   relationship F1")
            self.stdout.write("                   without  with            without  with")
            cross_validate(
                files,
                margin=options["margin"],
                on_file=lambda row: self.stdout.write(
                    f"{row['file']:18s} {row['without']['entities_f1']:7.3f} "
                    f"{row['with']['entities_f1']:6.3f}          "
                    f"{row['without']['relationships_f1']:7.3f} "
                    f"{row['with']['relationships_f1']:6.3f}"
                ),
                **settings,
            )
        model = fit_files(files, margin=options["margin"], **settings)
        self.stdout.write(
            f"fitted on {model['examples']} names from {', '.join(f.name for f in files)}: "
            f"{len(model['weights'])} features"
        )
        if not options["dry_run"]:
            typer.MODEL.write_text(json.dumps(model, separators=(",", ":")) + "\n")
            typer.shipped.cache_clear()
            self.stdout.write(f"wrote {typer.MODEL}")
