"""Reads of consolidation runs."""

from django.db.models import QuerySet

from consolidation.models import ConsolidationRun, PromotionState
from memoryhub.errors import DomainError
from memoryhub.models import Worker


def consolidation_run_list(
    *, worker: Worker, kind: str | None = None
) -> QuerySet[ConsolidationRun]:
    """A worker's consolidation runs (of one ``kind``: migration, promotion, retention),
    newest first."""
    queryset = ConsolidationRun.objects.filter(worker=worker)
    if kind:
        if kind not in ConsolidationRun.Kind.values:
            raise DomainError(
                f"kind must be one of {', '.join(ConsolidationRun.Kind.values)}",
                fields={"kind": "unknown"},
            )
        queryset = queryset.filter(kind=kind)
    return queryset.order_by("-started_at", "-id")


def promotion_state_get(*, memory) -> PromotionState | None:
    """A shortterm memory's promotion score, breakdown and history (None: never checked)."""
    return PromotionState.objects.filter(memory=memory).first()
