from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from memoryhub.api.idempotency import IDEMPOTENCY_HEADER, idempotent
from memoryhub.api.mixins import WorkerScopedMixin
from tiers.api.active_serializers import (
    ActiveMemoryCreateSerializer,
    ActiveMemorySerializer,
    ActiveMemorySummarySerializer,
    ActiveMemoryUpdateSerializer,
    DetailedRequestSerializer,
    SectionContentSerializer,
    SectionsUpdateSerializer,
)
from tiers.filtersets import ActiveMemoryFilterSet
from tiers.models import ActiveMemory
from tiers.selectors.active import active_memories_get_many, active_memory_get, active_memory_list
from tiers.services.active import (
    active_memory_create,
    active_memory_delete,
    active_memory_update,
    active_memory_update_sections,
)


class ActiveScopedMixin(WorkerScopedMixin):
    def get_memory(self):
        return active_memory_get(worker=self.get_worker(), memory_id=self.kwargs["memory_id"])


class ActiveMemoryListView(ActiveScopedMixin, ListAPIView):
    """List a worker's active memories as summaries; create one from a YAML template."""

    serializer_class = ActiveMemorySummarySerializer
    filterset_class = ActiveMemoryFilterSet

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ActiveMemory.objects.none()
        return active_memory_list(worker=self.get_worker())

    @extend_schema(
        request=ActiveMemoryCreateSerializer,
        responses={201: ActiveMemorySerializer},
        parameters=[IDEMPOTENCY_HEADER],
    )
    @idempotent
    def post(self, request, worker_id):
        worker = self.get_worker()
        payload = ActiveMemoryCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        memory = active_memory_create(
            worker=worker,
            title=data["title"],
            description=data["description"],
            template_yaml=data["template_content"],
            initial_sections=data.get("initial_sections"),
            metadata=data.get("metadata"),
        )
        return Response(ActiveMemorySerializer(memory).data, status=status.HTTP_201_CREATED)


class ActiveMemoryDetailedView(ActiveScopedMixin, APIView):
    """``get_detailed_active_memories``: full memories for a list of ids, in that order."""

    @extend_schema(request=DetailedRequestSerializer, responses=ActiveMemorySerializer(many=True))
    def post(self, request, worker_id):
        payload = DetailedRequestSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        memories = active_memories_get_many(
            worker=self.get_worker(),
            ids=payload.validated_data["ids"],
            max_ids=settings.MEMORYHUB_API["max_batch_ids"],
        )
        return Response(ActiveMemorySerializer(memories, many=True).data)


class ActiveMemoryDetailView(ActiveScopedMixin, APIView):
    @extend_schema(responses=ActiveMemorySerializer)
    def get(self, request, worker_id, memory_id):
        return Response(ActiveMemorySerializer(self.get_memory()).data)

    @extend_schema(request=ActiveMemoryUpdateSerializer, responses=ActiveMemorySerializer)
    def patch(self, request, worker_id, memory_id):
        """``update_active_memory``: title, description, template, metadata and/or
        section contents in one transaction."""
        memory = self.get_memory()
        payload = ActiveMemoryUpdateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        memory = active_memory_update(
            memory=memory,
            title=data.get("title"),
            description=data.get("description"),
            template_yaml=data.get("template_content"),
            metadata=data.get("metadata"),
            sections=data.get("sections"),
        )
        return Response(ActiveMemorySerializer(memory).data)

    @extend_schema(responses={204: None})
    def delete(self, request, worker_id, memory_id):
        active_memory_delete(memory=self.get_memory())
        return Response(status=status.HTTP_204_NO_CONTENT)


class ActiveMemorySectionsView(ActiveScopedMixin, APIView):
    """Replace the content of several sections at once; each count goes up by one."""

    @extend_schema(request=SectionsUpdateSerializer, responses=ActiveMemorySerializer)
    def patch(self, request, worker_id, memory_id):
        memory = self.get_memory()
        payload = SectionsUpdateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        memory = active_memory_update_sections(
            memory=memory, sections=payload.validated_data["sections"]
        )
        return Response(ActiveMemorySerializer(memory).data)


class ActiveMemorySectionView(ActiveScopedMixin, APIView):
    """Replace one section's content (by section id or name); its count goes up by one."""

    @extend_schema(
        request=SectionContentSerializer,
        responses=ActiveMemorySerializer,
        parameters=[
            OpenApiParameter(
                "section", str, OpenApiParameter.PATH, description="section id or name"
            )
        ],
    )
    def put(self, request, worker_id, memory_id, section):
        memory = self.get_memory()
        payload = SectionContentSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        memory = active_memory_update_sections(
            memory=memory, sections={section: payload.validated_data["content"]}
        )
        return Response(ActiveMemorySerializer(memory).data)
