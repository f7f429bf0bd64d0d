from django.core.management.base import BaseCommand, CommandError

from consolidation.models import ConsolidationRun
from consolidation.services.shortterm_to_longterm import retention_candidates, retention_sweep
from memoryhub.models import Worker


class Command(BaseCommand):
    help = (
        "Remove shortterm memories older than SHORTTERM_RETENTION_DAYS that were promoted "
        "(and not changed since) or scored low, with their chunks and graph; never one a "
        "pending conflict is about. --dry-run lists the candidates."
    )

    def add_arguments(self, parser):
        parser.add_argument("--worker", help="only this worker (name)")
        parser.add_argument("--dry-run", action="store_true", help="list, remove nothing")

    def handle(self, *args, **options):
        worker_id = None
        if options["worker"]:
            worker = Worker.objects.filter(name=options["worker"]).first()
            if worker is None:
                raise CommandError(f"no worker named {options['worker']!r}")
            worker_id = worker.pk
        if options["dry_run"]:
            candidates = retention_candidates(worker_id=worker_id)
            for memory in candidates:
                self.stdout.write(f"{memory.pk}\t{memory.worker_id}\t{memory.title}")
            self.stdout.write(f"{len(candidates)} candidate(s); nothing removed")
            return
        run_ids = retention_sweep(worker_id=worker_id, trigger=ConsolidationRun.Trigger.COMMAND)
        removed = kept = 0
        for run in ConsolidationRun.objects.filter(pk__in=run_ids):
            removed += run.outcomes[0]["summary"]["removed"]
            kept += run.outcomes[0]["summary"]["kept"]
            for outcome in run.outcomes[1:]:
                self.stdout.write(
                    f"{outcome['outcome']}: {outcome['memory_id']} "
                    f"{outcome.get('title', '')} ({outcome.get('detail', '')})"
                )
        self.stdout.write(f"{removed} removed, {kept} kept")
