from django.core.management.base import BaseCommand, CommandError

from graph.extraction import EXTRACTOR_NAMES
from graph.services.extraction import BATCH_SIZE, graph_reextract
from memoryhub.models import Worker
from memoryhub.progress import Progress


class Command(BaseCommand):
    help = (
        "Extract the entity graph of a worker's shortterm memories again (after a change of "
        "extractor), in batches. Edited entities and relationships stay; safe to run twice."
    )

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--worker", help="the worker's name or id")
        which.add_argument("--all-workers", action="store_true", help="every worker, one by one")
        parser.add_argument(
            "--extractor",
            choices=EXTRACTOR_NAMES,
            help="default: the configured one (MEMORYHUB_EXTRACTOR)",
        )
        parser.add_argument(
            "--batch-size", type=int, default=BATCH_SIZE, help="memories per extractor call"
        )

    def handle(self, *args, **options):
        if options["batch_size"] < 1:
            raise CommandError("--batch-size must be at least 1")
        workers = list(Worker.objects.order_by("pk")) if options["all_workers"] else []
        if options["worker"] is not None:
            workers = self._worker(options["worker"])
        totals = {"memories": 0, "done": 0, "failed": 0, "skipped": 0, "seconds": 0.0}
        for worker in workers:
            progress = Progress(
                worker.shortterm_memories.count(),
                f"re-extracting {worker.name}",
                stream=self.stderr._out,
            )
            report = graph_reextract(
                worker=worker,
                extractor_name=options["extractor"],
                batch_size=options["batch_size"],
                progress=progress.advance,
            )
            progress.finish()
            self.stdout.write(
                f"{report['worker']}: {report['memories']} memories with {report['extractor']} "
                f"in {report['seconds']:.1f}s: {report['done']} done, {report['failed']} failed, "
                f"{report['skipped']} skipped; entities {report['entities_before']} → "
                f"{report['entities_after']}, relationships {report['relationships_before']} → "
                f"{report['relationships_after']}"
            )
            for key in totals:
                totals[key] += report[key]
        if options["all_workers"]:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Re-extracted {totals['memories']} memories of {len(workers)} worker(s) in "
                    f"{totals['seconds']:.1f}s: {totals['done']} done, {totals['failed']} failed, "
                    f"{totals['skipped']} skipped."
                )
            )

    @staticmethod
    def _worker(value: str) -> list[Worker]:
        worker = Worker.objects.filter(name=value).first()
        if worker is None and value.isdigit():
            worker = Worker.objects.filter(pk=int(value)).first()
        if worker is None:
            raise CommandError(f"--worker: no worker named or numbered {value!r}")
        return [worker]
