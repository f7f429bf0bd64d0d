from django.core.management.base import BaseCommand, CommandError

from memoryhub.models import Worker
from tiers.models import MigrationRun
from tiers.services.migration import migration_sweep


class Command(BaseCommand):
    help = "Migrate active memory into the shortterm tier now (all workers, or --worker NAME)."

    def add_arguments(self, parser):
        parser.add_argument("--worker", help="only this worker (name)")

    def handle(self, *args, **options):
        worker_id = None
        if options["worker"]:
            worker = Worker.objects.filter(name=options["worker"]).first()
            if worker is None:
                raise CommandError(f"no worker named {options['worker']!r}")
            worker_id = worker.pk
        runs = MigrationRun.objects.filter(pk__in=migration_sweep(worker_id=worker_id, trigger=MigrationRun.Trigger.COMMAND))
        counts: dict[str, int] = {}
        for run in runs:
            for outcome in run.outcomes:
                counts[outcome["outcome"]] = counts.get(outcome["outcome"], 0) + 1
        summary = ", ".join(f"{n} {name}" for name, n in sorted(counts.items())) or "nothing to migrate"
        self.stdout.write(f"{runs.count()} active memor{'y' if runs.count() == 1 else 'ies'} migrated: {summary}")
