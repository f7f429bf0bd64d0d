"""Reads of consolidation runs."""

from django.db.models import QuerySet

from consolidation.models import ConsolidationRun
from memoryhub.models import Worker


def consolidation_run_list(*, worker: Worker) -> QuerySet[ConsolidationRun]:
    """A worker's consolidation runs, newest first."""
    return ConsolidationRun.objects.filter(worker=worker).order_by("-started_at", "-id")
