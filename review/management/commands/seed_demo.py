"""``manage.py seed_demo [--reset]``: the demo workers of ``review.services.demo``.

python manage.py seed_demo            # idempotent: a second run adds nothing
python manage.py seed_demo --reset    # remove the demo workers and seed them again
"""

import os

from django.core.management.base import BaseCommand, CommandError

from memoryhub.errors import DomainError
from review.selectors.browser import browser_workers
from review.selectors.queue import conflict_status_counts, pending_reason_counts
from review.services.demo import REVIEWER, demo_seed


class Command(BaseCommand):
    help = (
        "Create demo workers with active and shortterm memory, their graphs and merge "
        "conflicts of several kinds (idempotent; --reset recreates them)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset", action="store_true", help="remove the demo workers first, then seed"
        )

    def handle(self, *args, **options):
        try:
            report = demo_seed(reset=options["reset"])
        except DomainError as exc:
            raise CommandError(exc.detail) from exc
        for name in report.removed:
            self.stdout.write(f"Removed demo worker {name}.")
        for name in report.kept:
            self.stdout.write(f"Demo worker {name} is already there (--reset to redo).")
        for name, outcomes in report.seeded.items():
            found = ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items()))
            self.stdout.write(f"Seeded demo worker {name}: consolidation {found}.")

        ids = [w.pk for w in report.workers]
        statuses = conflict_status_counts(worker_ids=ids)
        self.stdout.write("\nDemo workers:")
        for row in browser_workers(worker_ids=ids):
            states = ", ".join(
                f"{n} {status}" for status, n in sorted(statuses.get(row.worker.pk, {}).items())
            )
            self.stdout.write(
                f"  {row.worker.name} (id {row.worker.pk}): {row.active_memories} active "
                f"memories, {row.shortterm_memories} shortterm memories ({row.chunks} chunks), "
                f"graph of {row.entities} entities and {row.relationships} relationships; "
                f"conflicts: {states or 'none'}"
            )
        reasons = pending_reason_counts(worker_ids=ids)
        self.stdout.write(
            f"\n{reasons['pending']} pending conflict(s); per reason: "
            + (", ".join(f"{code} {n}" for code, n in sorted(reasons["codes"].items())) or "none")
        )
        bind = os.environ.get("MEMORYHUB_BIND", "127.0.0.1:8000")
        self.stdout.write(
            f"\nOpen http://{bind}/review/ to review them (log in as the admin; demo "
            f"decisions were made by {REVIEWER!r}), the decision log at "
            f"http://{bind}/review/decisions/ and the detector's precision at "
            f"http://{bind}/review/detector/."
        )
