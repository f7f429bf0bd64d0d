from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from graph.api.serializers import (
    EntityHistorySerializer,
    EntitySerializer,
    GraphSerializer,
    GraphUpdateSerializer,
    NeighbourhoodSerializer,
    PathSerializer,
    RelationshipSerializer,
)
from graph.selectors.graph import (
    entity_dict,
    entity_get,
    entity_history,
    entity_search,
    memories_graph,
    neighbourhood,
    relationship_history,
    shortest_path,
)
from graph.services.edit import memory_graph_update
from memoryhub.api.mixins import WorkerScopedMixin
from memoryhub.errors import DomainError
from tiers.selectors.shortterm import shortterm_memory_get


def _int_param(request, name: str, default=None, *, required=False) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        if required:
            raise DomainError(f"{name} is required", fields={name: "required"})
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise DomainError(
            f"{name} must be an integer", fields={name: "must be an integer"}
        ) from exc


class MemoryGraphView(WorkerScopedMixin, APIView):
    """Entities and relationships extracted from one shortterm memory."""

    @extend_schema(responses=GraphSerializer)
    def get(self, request, worker_id, memory_id):
        worker = self.get_worker()
        memory = shortterm_memory_get(worker=worker, memory_id=memory_id)
        return Response(memories_graph(worker=worker, memory_ids=[memory.pk])[memory.pk])

    @extend_schema(request=GraphUpdateSerializer, responses=GraphSerializer)
    def patch(self, request, worker_id, memory_id):
        """``update_shortterm_memory_entities_relationships``."""
        worker = self.get_worker()
        memory = shortterm_memory_get(worker=worker, memory_id=memory_id)
        payload = GraphUpdateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        memory_graph_update(memory=memory, **payload.validated_data)
        return Response(memories_graph(worker=worker, memory_ids=[memory.pk])[memory.pk])


class EntitySearchView(WorkerScopedMixin, APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("prefix", str, required=True),
            OpenApiParameter("tier", str),
            OpenApiParameter("limit", int),
        ],
        responses=EntitySerializer(many=True),
        operation_id="entity_search",
    )
    def get(self, request, worker_id):
        limit = _int_param(request, "limit", 20)
        if not 1 <= limit <= settings.MEMORYHUB_SEARCH["max_limit"]:
            raise DomainError(
                "limit out of range",
                fields={"limit": f"must be 1 to {settings.MEMORYHUB_SEARCH['max_limit']}"},
            )
        tier = request.query_params.get("tier")
        if tier not in (None, "", "shortterm", "longterm"):
            raise DomainError(
                "tier must be shortterm or longterm", fields={"tier": "shortterm or longterm"}
            )
        return Response(
            entity_search(
                worker=self.get_worker(),
                prefix=request.query_params.get("prefix", ""),
                tier=tier or None,
                limit=limit,
            )
        )


class EntityDetailView(WorkerScopedMixin, APIView):
    @extend_schema(responses=EntitySerializer, operation_id="entity_get")
    def get(self, request, worker_id, entity_id):
        return Response(entity_dict(entity_get(worker=self.get_worker(), entity_id=entity_id)))


class NeighbourhoodView(WorkerScopedMixin, APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("hops", int, description="1 to 3"),
            OpenApiParameter("limit", int),
        ],
        responses=NeighbourhoodSerializer,
    )
    def get(self, request, worker_id, entity_id):
        return Response(
            neighbourhood(
                worker=self.get_worker(),
                entity_id=entity_id,
                hops=_int_param(request, "hops", 1),
                limit=_int_param(request, "limit"),
            )
        )


class PathView(WorkerScopedMixin, APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("from", int, required=True),
            OpenApiParameter("to", int, required=True),
            OpenApiParameter("max_hops", int),
        ],
        responses=PathSerializer,
    )
    def get(self, request, worker_id):
        max_hops = _int_param(request, "max_hops", 6)
        if not 1 <= max_hops <= 10:
            raise DomainError("max_hops must be 1 to 10", fields={"max_hops": "must be 1 to 10"})
        return Response(
            shortest_path(
                worker=self.get_worker(),
                from_id=_int_param(request, "from", required=True),
                to_id=_int_param(request, "to", required=True),
                max_hops=max_hops,
            )
        )


class HistoryView(WorkerScopedMixin, APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("from", int, required=True),
            OpenApiParameter("to", int, required=True),
        ],
        responses=RelationshipSerializer(many=True),
    )
    def get(self, request, worker_id):
        return Response(
            relationship_history(
                worker=self.get_worker(),
                from_id=_int_param(request, "from", required=True),
                to_id=_int_param(request, "to", required=True),
            )
        )


class EntityHistoryView(WorkerScopedMixin, APIView):
    """An entity through time: its observations in shortterm memories, its longterm record
    and the versions of its longterm relationships."""

    @extend_schema(responses=EntityHistorySerializer)
    def get(self, request, worker_id, entity_id):
        return Response(entity_history(worker=self.get_worker(), entity_id=entity_id))
