"""What entity extraction costs an import: the same LoCoMo turns stored without a graph,
with the extractor inline, and in background mode (the write, then the extraction tasks).
Prints chunks/s for each. See ``bench.importing``."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from bench.importing import (
    RUNS,
    delete_workers,
    fresh_worker,
    import_run,
    locomo_sessions,
    warm_up,
)
from bench.locomo import LOCOMO_DIR
from graph.extraction import EXTRACTOR_NAMES, get_extractor
from memoryhub.progress import Progress


class Command(BaseCommand):
    help = (
        "Import cost of entity extraction: N LoCoMo turns stored without a graph, with the "
        "extractor inline, and in background mode; chunks/s for each."
    )

    def add_arguments(self, parser):
        parser.add_argument("--turns", type=int, default=600, help="dialogue turns (chunks)")
        parser.add_argument(
            "--extractor",
            choices=EXTRACTOR_NAMES,
            help="default: the configured one (MEMORYHUB_EXTRACTOR)",
        )
        parser.add_argument("--data", default=str(LOCOMO_DIR), help="folder of LoCoMo JSON files")

    def handle(self, *args, **options):
        if options["turns"] < 1:
            raise CommandError("--turns must be at least 1")
        try:
            sessions = locomo_sessions(Path(options["data"]), options["turns"])
        except ValueError as exc:
            raise CommandError(f"--data: {exc}") from exc
        extractor = options["extractor"] or settings.MEMORYHUB_GRAPH["extractor"]
        running = get_extractor(extractor).name  # the parser falls back when it cannot load
        self.stdout.write(
            f"{options['turns']} turns in {len(sessions)} memories, embeddings "
            f"{settings.MEMORYHUB_EMBEDDINGS['provider']}, extractor {running}"
        )
        warm_up(running)
        bar: list[Progress] = []  # the one on screen

        def progress(total: int, label: str):
            self._finish(bar)
            bar.append(Progress(total, label, stream=self.stderr._out))
            return bar[0].advance

        workers, reports = [], []
        try:
            for run in RUNS:
                workers.append(fresh_worker(run))
                reports.append(
                    import_run(
                        run=run,
                        worker=workers[-1],
                        sessions=sessions,
                        extractor=running,
                        progress=progress,
                    )
                )
                self._finish(bar)
        finally:
            delete_workers(workers)
        self._print(reports, running)

    @staticmethod
    def _finish(bar: list[Progress]) -> None:
        if bar:
            bar.pop().finish()

    def _print(self, reports: list[dict], extractor: str) -> None:
        base = reports[0]["chunks_per_s"]
        labels = {"none": "no extraction", "inline": f"{extractor} inline"}
        for report in reports:
            line = (
                f"{labels.get(report['run'], f'{extractor} background'):24s} "
                f"{report['chunks']} chunks, write {report['write_seconds']:6.2f}s "
                f"{report['chunks_per_s']:8.1f} chunks/s ({report['chunks_per_s'] / base:.2f}×)"
            )
            if report["run"] == "background":
                line += (
                    f"; tasks {report['drain_seconds']:.2f}s, write + tasks "
                    f"{report['chunks_per_s_with_drain']:.1f} chunks/s "
                    f"({report['chunks_per_s_with_drain'] / base:.2f}×)"
                )
            if report["run"] != "none":
                line += f"; {report['entities']} entities, {report['relationships']} relationships"
            self.stdout.write(line)
