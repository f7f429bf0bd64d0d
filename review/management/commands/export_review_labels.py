"""Export reviewers' decisions as labelled pairs for the detector's calibration.

Each decided conflict gives one JSONL line per conflicting chunk, in the format
``manage.py calibrate_migration --pairs`` reads (``id``, ``kind``, ``label``,
``existing``, ``incoming``; plus ``conflict_id``, ``chunk_id``, ``worker``, ``reasons``
and ``resolved_at`` for the record). The label comes from the decision
(``review.selectors.decisions.DECISION_LABEL``): accept incoming, merge with edited text
and keep existing → ``conflict``; store as a separate memory → ``new``; dismiss →
``merge``. Undone decisions are left out.

    python manage.py export_review_labels --output labels.jsonl [--worker NAME] [--since 2026-01-01]
    python manage.py calibrate_migration --pairs labels.jsonl
"""

import json
import sys
from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from memoryhub.models import Worker
from memoryhub.progress import Progress
from review.selectors.decisions import review_label_count, review_labels


def _since(value: str):
    try:
        moment = parse_datetime(value) if "T" in value or " " in value else None
        day = None if moment else parse_date(value)
    except ValueError:
        moment = day = None
    if moment is None and day is None:
        raise CommandError(f"--since {value!r}: give a date (2026-01-31) or an ISO date-time")
    if moment is not None and timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment or day


class Command(BaseCommand):
    help = (
        "Export reviewers' decisions as labelled pairs (JSONL) for "
        "`calibrate_migration --pairs`: conflict / new / merge per decided conflict and chunk."
    )

    def add_arguments(self, parser):
        parser.add_argument("--output", "-o", default="-", help="JSONL file (default: stdout)")
        parser.add_argument("--worker", help="only this worker's decisions (name)")
        parser.add_argument("--since", help="only decisions made on or after this date")

    def handle(self, *args, **options):
        worker = None
        if options["worker"]:
            worker = Worker.objects.filter(name=options["worker"]).first()
            if worker is None:
                raise CommandError(f"no worker named {options['worker']!r}")
        since = _since(options["since"]) if options["since"] else None
        to_stdout = options["output"] == "-"
        path = None if to_stdout else Path(options["output"])
        if path is not None and path.parent and not path.parent.is_dir():
            raise CommandError(f"no such directory: {path.parent}")

        total = review_label_count(worker=worker, since=since)
        progress = Progress(total, "export", stream=sys.stderr)
        labels: Counter[str] = Counter()
        decisions: set[str] = set()
        out = self.stdout if to_stdout else path.open("w", encoding="utf-8")
        try:
            for pair in review_labels(worker=worker, since=since):
                out.write(json.dumps(pair, ensure_ascii=False) + "\n")
                labels[pair["label"]] += 1
                if pair["conflict_id"] not in decisions:
                    decisions.add(pair["conflict_id"])
                    progress.advance()
        finally:
            if not to_stdout:
                out.close()
        progress.finish()
        per_label = ", ".join(f"{labels[k]} {k}" for k in ("conflict", "new", "merge") if labels[k])
        where = "stdout" if to_stdout else str(path)
        self.stderr.write(
            f"{sum(labels.values())} labelled pair(s) from {len(decisions)} decided "
            f"conflict(s){f' ({per_label})' if per_label else ''} written to {where}"
        )
        if not labels:
            self.stderr.write(
                "No decisions to export yet: decide conflicts in the review queue first."
            )
