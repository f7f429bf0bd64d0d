from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from consolidation.api.serializers import (
    AutoResolveResultSerializer,
    AutoResolveSerializer,
    ConsolidationRunSerializer,
    PromotionOutcomeSerializer,
    PromotionStateSerializer,
    SweepQueuedSerializer,
)
from consolidation.models import ConsolidationRun
from consolidation.selectors.runs import consolidation_run_list, promotion_state_get
from consolidation.services.active_to_shortterm import (
    migrate_active_memory,
    migration_sweep_enqueue,
)
from consolidation.services.auto_resolve import auto_resolve
from consolidation.services.shortterm_to_longterm import (
    promotion_request,
    promotion_sweep_enqueue,
    retention_sweep_enqueue,
)
from memoryhub.api.mixins import WorkerScopedMixin
from memoryhub.errors import NotFoundError
from memoryhub.services.audit import audit_record
from tiers.selectors.active import active_memory_get
from tiers.selectors.shortterm import shortterm_memory_get


class ActiveMemoryConsolidateView(WorkerScopedMixin, APIView):
    """Consolidate one active memory into the shortterm tier now (task completion): each
    section updated at least ``min_update_count`` times is merged, sent to review as a
    conflict, or stored new."""

    @extend_schema(request=None, responses=ConsolidationRunSerializer)
    def post(self, request, worker_id, memory_id):
        memory = active_memory_get(worker=self.get_worker(), memory_id=memory_id)
        run = migrate_active_memory(memory=memory, trigger=ConsolidationRun.Trigger.API)
        return Response(ConsolidationRunSerializer(run).data)


class ConsolidationRunListView(WorkerScopedMixin, ListAPIView):
    """A worker's consolidation runs and their per-section outcomes, newest first; POST
    queues a sweep of the worker on the task cluster (202 with the task id)."""

    serializer_class = ConsolidationRunSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ConsolidationRun.objects.none()
        return consolidation_run_list(
            worker=self.get_worker(), kind=self.request.query_params.get("kind") or None
        )

    @extend_schema(request=None, responses={202: SweepQueuedSerializer})
    def post(self, request, worker_id):
        task_id = migration_sweep_enqueue(worker_id=self.get_worker().pk)
        return Response({"task_id": task_id}, status=status.HTTP_202_ACCEPTED)


class ActiveMemoryAutoResolveView(WorkerScopedMixin, APIView):
    """The memorizer's ``auto_resolve``: the active content, the candidate memory's most
    similar chunks, and the entity/relationship differences — new ones are added to the
    candidate's graph, conflicting ones are reported."""

    @extend_schema(request=AutoResolveSerializer, responses=AutoResolveResultSerializer)
    def post(self, request, worker_id, memory_id):
        active = active_memory_get(worker=self.get_worker(), memory_id=memory_id)
        payload = AutoResolveSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        shortterm = shortterm_memory_get(
            worker=active.worker, memory_id=data["shortterm_memory_id"]
        )
        return Response(
            auto_resolve(
                active=active, shortterm=shortterm, section=data.get("section"), limit=data["limit"]
            )
        )


# The names agents know: "migrate" and "migrations" (kept, and listed as deprecated in the schema).
@extend_schema(deprecated=True)
class ActiveMemoryMigrateView(ActiveMemoryConsolidateView):
    """Alias of ``POST .../active/{id}/consolidate``."""


@extend_schema(deprecated=True)
class MigrationRunListView(ConsolidationRunListView):
    """Alias of ``.../consolidation/runs``."""


class ShorttermPromotionView(WorkerScopedMixin, APIView):
    """A shortterm memory's promotion score: the four components against the threshold,
    the score history and what decided the last check (404 before the first check). POST:
    a manual promotion request — promote now, whatever the score (409 while a conflict
    about the memory awaits a reviewer)."""

    @extend_schema(responses=PromotionStateSerializer)
    def get(self, request, worker_id, memory_id):
        memory = shortterm_memory_get(worker=self.get_worker(), memory_id=memory_id)
        state = promotion_state_get(memory=memory)
        if state is None:
            raise NotFoundError(
                f"shortterm memory {memory.pk} has not been scored yet",
                fields={"memory_id": "not scored yet"},
            )
        return Response(PromotionStateSerializer(state).data)

    @extend_schema(request=None, responses=PromotionOutcomeSerializer)
    def post(self, request, worker_id, memory_id):
        worker = self.get_worker()
        outcome = promotion_request(worker=worker, memory_id=memory_id)
        audit_record(
            action="promotion.request",
            target=f"shortterm:{memory_id}",
            token=request.auth,
            worker=worker,
            detail={"versions_created": outcome.versions_created, "unchanged": outcome.unchanged},
        )
        return Response(PromotionOutcomeSerializer(outcome.as_dict()).data)


class PromotionSweepView(WorkerScopedMixin, ListAPIView):
    """The worker's promotion sweeps (runs with their counts and promoted memories), newest
    first; POST queues a sweep of the worker on the task cluster (202)."""

    serializer_class = ConsolidationRunSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ConsolidationRun.objects.none()
        return consolidation_run_list(
            worker=self.get_worker(), kind=ConsolidationRun.Kind.PROMOTION
        )

    @extend_schema(request=None, responses={202: SweepQueuedSerializer})
    def post(self, request, worker_id):
        task_id = promotion_sweep_enqueue(worker_id=self.get_worker().pk)
        return Response({"task_id": task_id}, status=status.HTTP_202_ACCEPTED)


class RetentionSweepView(WorkerScopedMixin, ListAPIView):
    """The worker's retention sweeps (which shortterm memories were removed and why),
    newest first; POST queues one on the task cluster (202)."""

    serializer_class = ConsolidationRunSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ConsolidationRun.objects.none()
        return consolidation_run_list(
            worker=self.get_worker(), kind=ConsolidationRun.Kind.RETENTION
        )

    @extend_schema(request=None, responses={202: SweepQueuedSerializer})
    def post(self, request, worker_id):
        task_id = retention_sweep_enqueue(worker_id=self.get_worker().pk)
        return Response({"task_id": task_id}, status=status.HTTP_202_ACCEPTED)
