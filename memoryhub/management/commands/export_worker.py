import sys

from django.core.management.base import BaseCommand, CommandError

from memoryhub.models import Worker
from memoryhub.progress import Progress
from memoryhub.services.audit import audit_record
from memoryhub.services.portability import portable_models, worker_export


class Command(BaseCommand):
    help = (
        "Write one worker's whole memory (active, shortterm, longterm versions, graph, usage, "
        "promotion scores, consolidation runs, conflicts and decisions) as JSONL."
    )

    def add_arguments(self, parser):
        parser.add_argument("--worker", required=True, help="the worker (name)")
        parser.add_argument("--out", required=True, help="file to write ('-': standard output)")

    def handle(self, *args, **options):
        worker = Worker.objects.filter(name=options["worker"]).first()
        if worker is None:
            raise CommandError(f"no worker named {options['worker']!r}")
        from django.apps import apps

        total = sum(
            apps.get_model(spec.model).objects.filter(**{spec.worker: worker}).count()
            for spec in portable_models()
        )
        progress = Progress(total, f"exporting {worker.name}", stream=self.stderr._out)
        if options["out"] == "-":
            counts = worker_export(worker=worker, out=sys.stdout, progress=progress.advance)
        else:
            with open(options["out"], "w", encoding="utf-8") as out:
                counts = worker_export(worker=worker, out=out, progress=progress.advance)
        progress.finish()
        audit_record(
            action="worker.export",
            target=f"worker:{worker.pk}",
            worker=worker,
            detail={"file": options["out"], "counts": counts},
        )
        summary = ", ".join(f"{n} {label}" for label, n in counts.items() if n)
        self.stderr.write(f"exported {worker.name}: {summary or 'nothing'}")
