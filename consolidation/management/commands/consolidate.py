from django.core.management.base import BaseCommand, CommandError

from consolidation.models import ConsolidationRun
from consolidation.services.active_to_shortterm import migration_sweep
from memoryhub.models import Worker


class Command(BaseCommand):
    help = "Consolidate active memory into the shortterm tier now (all workers, or --worker NAME)."
    verb = "consolidated"

    def add_arguments(self, parser):
        parser.add_argument("--worker", help="only this worker (name)")

    def handle(self, *args, **options):
        worker_id = None
        if options["worker"]:
            worker = Worker.objects.filter(name=options["worker"]).first()
            if worker is None:
                raise CommandError(f"no worker named {options['worker']!r}")
            worker_id = worker.pk
        run_ids = migration_sweep(worker_id=worker_id, trigger=ConsolidationRun.Trigger.COMMAND)
        counts: dict[str, int] = {}
        for run in ConsolidationRun.objects.filter(pk__in=run_ids):
            for outcome in run.outcomes:
                counts[outcome["outcome"]] = counts.get(outcome["outcome"], 0) + 1
        summary = ", ".join(f"{n} {name}" for name, n in sorted(counts.items())) or "nothing to do"
        noun = "active memory" if len(run_ids) == 1 else "active memories"
        self.stdout.write(f"{len(run_ids)} {noun} {self.verb}: {summary}")
