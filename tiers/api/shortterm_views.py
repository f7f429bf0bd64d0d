from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from memoryhub.api.idempotency import IDEMPOTENCY_HEADER, idempotent
from memoryhub.api.mixins import WorkerScopedMixin
from memoryhub.errors import DomainError
from memoryhub.validation import moment
from tiers.api.shortterm_serializers import (
    ChunksAddSerializer,
    ChunksUpdateSerializer,
    ShorttermChunkSerializer,
    ShorttermCreateSerializer,
    ShorttermMemorySerializer,
    ShorttermMemorySummarySerializer,
    ShorttermUpdateSerializer,
)
from tiers.models import ShorttermMemory
from tiers.selectors.shortterm import shortterm_memory_get, shortterm_memory_list, shortterm_recent
from tiers.services.shortterm import (
    shortterm_chunks_add,
    shortterm_chunks_update,
    shortterm_memory_create,
    shortterm_memory_delete,
    shortterm_memory_update,
)


class ShorttermScopedMixin(WorkerScopedMixin):
    def get_memory(self, with_chunks: bool = False):
        return shortterm_memory_get(
            worker=self.get_worker(), memory_id=self.kwargs["memory_id"], with_chunks=with_chunks
        )


def _memory_response(memory, status_code=status.HTTP_200_OK):
    # Read again with its chunks, their vectors left out (384 floats a row parsed for nothing).
    memory = shortterm_memory_get(worker=memory.worker, memory_id=memory.pk, with_chunks=True)
    return Response(ShorttermMemorySerializer(memory).data, status=status_code)


class ShorttermListView(ShorttermScopedMixin, ListAPIView):
    """A worker's shortterm memories (summaries, most recent first); create one."""

    serializer_class = ShorttermMemorySummarySerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ShorttermMemory.objects.none()
        return shortterm_memory_list(worker=self.get_worker())

    @extend_schema(
        request=ShorttermCreateSerializer,
        responses={201: ShorttermMemorySerializer},
        parameters=[IDEMPOTENCY_HEADER],
    )
    @idempotent
    def post(self, request, worker_id):
        worker = self.get_worker()
        payload = ShorttermCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        memory = shortterm_memory_create(worker=worker, **payload.validated_data)
        return _memory_response(memory, status.HTTP_201_CREATED)


class ShorttermRecentView(ShorttermScopedMixin, APIView):
    """``GetAllRecentMemories``: the latest memories, newest first, optionally since a time."""

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "limit", int, description="1 to MEMORYHUB_SEARCH max_limit (default 20)"
            ),
            OpenApiParameter("since", str, description="ISO 8601 date-time"),
        ],
        responses=ShorttermMemorySummarySerializer(many=True),
    )
    def get(self, request, worker_id):
        worker = self.get_worker()
        try:
            limit = int(request.query_params.get("limit", 20))
        except ValueError as exc:
            raise DomainError(
                "limit must be an integer", fields={"limit": "must be an integer"}
            ) from exc
        since = request.query_params.get("since")
        since_value = moment(since, "since") if since else None
        memories = shortterm_recent(
            worker=worker,
            limit=limit,
            max_limit=settings.MEMORYHUB_SEARCH["max_limit"],
            since=since_value,
        )
        return Response(ShorttermMemorySummarySerializer(memories, many=True).data)


class ShorttermDetailView(ShorttermScopedMixin, APIView):
    @extend_schema(responses=ShorttermMemorySerializer)
    def get(self, request, worker_id, memory_id):
        return Response(ShorttermMemorySerializer(self.get_memory(with_chunks=True)).data)

    @extend_schema(request=ShorttermUpdateSerializer, responses=ShorttermMemorySerializer)
    def patch(self, request, worker_id, memory_id):
        memory = self.get_memory()
        payload = ShorttermUpdateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        return _memory_response(shortterm_memory_update(memory=memory, **payload.validated_data))

    @extend_schema(responses={204: None})
    def delete(self, request, worker_id, memory_id):
        shortterm_memory_delete(memory=self.get_memory())
        return Response(status=status.HTTP_204_NO_CONTENT)


class ShorttermChunksView(ShorttermScopedMixin, APIView):
    @extend_schema(
        request=ChunksAddSerializer,
        responses={201: ShorttermChunkSerializer(many=True)},
        parameters=[IDEMPOTENCY_HEADER],
    )
    @idempotent
    def post(self, request, worker_id, memory_id):
        """``add_new_shortterm_memory_chunks``: ``{"chunks": [{content, metadata?, context?}]}``."""
        memory = self.get_memory()
        payload = ChunksAddSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        chunks = shortterm_chunks_add(memory=memory, chunks=payload.validated_data["chunks"])
        return Response(
            ShorttermChunkSerializer(chunks, many=True).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(request=ChunksUpdateSerializer, responses=ShorttermChunkSerializer(many=True))
    def patch(self, request, worker_id, memory_id):
        """``update_shortterm_memory_chunks``: ``{"updates": [{chunk_id, new_content}]}``."""
        memory = self.get_memory()
        payload = ChunksUpdateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        chunks = shortterm_chunks_update(memory=memory, updates=payload.validated_data["updates"])
        return Response(ShorttermChunkSerializer(chunks, many=True).data)
