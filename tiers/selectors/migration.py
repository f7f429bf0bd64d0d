"""Reads of the Active → Shortterm migration."""

from django.db.models import QuerySet

from memoryhub.models import Worker
from tiers.models import MigrationRun


def migration_run_list(*, worker: Worker) -> QuerySet[MigrationRun]:
    """A worker's migration runs, newest first."""
    return MigrationRun.objects.filter(worker=worker).order_by("-started_at", "-id")
