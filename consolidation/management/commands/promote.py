from django.core.management.base import BaseCommand, CommandError

from consolidation.models import ConsolidationRun
from consolidation.services.shortterm_to_longterm import (
    promotion_candidates,
    promotion_request,
    promotion_sweep,
)
from memoryhub.models import Worker
from memoryhub.progress import Progress


class Command(BaseCommand):
    help = (
        "Score shortterm memories and promote those that qualify to the longterm tier (all "
        "workers, or --worker NAME); --memory ID promotes one memory now, whatever its score. "
        "Safe to run twice: an unchanged memory writes no new version."
    )

    def add_arguments(self, parser):
        parser.add_argument("--worker", help="only this worker (name)")
        parser.add_argument("--memory", type=int, help="promote this shortterm memory now")
        parser.add_argument("--limit", type=int, help="check at most this many memories")

    def handle(self, *args, **options):
        worker = None
        if options["worker"]:
            worker = Worker.objects.filter(name=options["worker"]).first()
            if worker is None:
                raise CommandError(f"no worker named {options['worker']!r}")
        if options["memory"] is not None:
            if worker is None:
                raise CommandError("--memory needs --worker (the memory's owner)")
            outcome = promotion_request(worker=worker, memory_id=options["memory"])
            self.stdout.write(
                f"memory {outcome.memory_id}: "
                + (
                    "unchanged since its last promotion"
                    if outcome.unchanged
                    else f"{len(outcome.versions_created)} version(s) created, "
                    f"{len(outcome.versions_closed)} closed"
                )
            )
            return
        worker_id = None if worker is None else worker.pk
        total = len(promotion_candidates(worker_id=worker_id, limit=options["limit"]))
        progress = Progress(total, "promotion sweep", stream=self.stderr._out)
        run_ids = promotion_sweep(
            worker_id=worker_id,
            trigger=ConsolidationRun.Trigger.COMMAND,
            limit=options["limit"],
            progress=lambda done, _total: progress.advance(),
        )
        elapsed = progress.finish()
        counts: dict[str, int] = {}
        for run in ConsolidationRun.objects.filter(pk__in=run_ids):
            for name, n in run.outcomes[0]["summary"].items():
                counts[name] = counts.get(name, 0) + n
        summary = ", ".join(f"{n} {name}" for name, n in counts.items()) or "nothing to check"
        self.stdout.write(f"{summary} in {elapsed:.1f} s")
