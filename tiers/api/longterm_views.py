from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from memoryhub.api.idempotency import IDEMPOTENCY_HEADER, idempotent
from memoryhub.api.mixins import WorkerScopedMixin
from memoryhub.errors import DomainError
from tiers.api.longterm_serializers import (
    LongtermChunkSerializer,
    LongtermSearchRequestSerializer,
    LongtermSearchResponseSerializer,
    MemoryEventSerializer,
    UsageEventRequestSerializer,
    UsageResponseSerializer,
)
from tiers.models import LongtermChunk
from tiers.search import search
from tiers.selectors.longterm import longterm_chunk_get, longterm_chunk_history, longterm_chunks
from tiers.selectors.shortterm import shortterm_memory_get
from tiers.selectors.usage import memory_usage
from tiers.services.usage import usage_record


def _confidence(request):
    value = request.query_params.get("confidence_threshold")
    if value is None:
        return None
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not 0.0 <= number <= 1.0:
        raise DomainError(
            "confidence_threshold must be a number from 0 to 1",
            fields={"confidence_threshold": "must be 0 to 1"},
        )
    return number


class LongtermListView(WorkerScopedMixin, ListAPIView):
    """A worker's longterm chunks: the current versions, or those valid at ``valid_at``."""

    serializer_class = LongtermChunkSerializer

    @extend_schema(
        parameters=[
            OpenApiParameter("valid_at", str, description="ISO 8601 (default: now)"),
            OpenApiParameter("confidence_threshold", float, description="0-1"),
        ]
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return LongtermChunk.objects.none()
        return longterm_chunks(
            worker=self.get_worker(),
            valid_at=self.request.query_params.get("valid_at") or None,
            confidence_threshold=_confidence(self.request),
        )


class LongtermDetailView(WorkerScopedMixin, APIView):
    @extend_schema(responses=LongtermChunkSerializer)
    def get(self, request, worker_id, chunk_id):
        chunk = longterm_chunk_get(worker=self.get_worker(), chunk_id=chunk_id)
        return Response(LongtermChunkSerializer(chunk).data)


class LongtermHistoryView(WorkerScopedMixin, APIView):
    """Every version promoted from one shortterm memory, newest first (the source may be
    gone: retention removes promoted memories, their versions stay)."""

    @extend_schema(responses=LongtermChunkSerializer(many=True))
    def get(self, request, worker_id, memory_id):
        versions = longterm_chunk_history(worker=self.get_worker(), shortterm_memory_id=memory_id)
        return Response(LongtermChunkSerializer(versions, many=True).data)


class LongtermSearchView(WorkerScopedMixin, APIView):
    """Search a worker's longterm chunks (``vector``, ``bm25`` or ``hybrid``): the current
    versions, those valid at ``valid_at``, or those overlapping ``time_range``; optionally
    only those at least ``confidence_threshold`` confident."""

    @extend_schema(
        request=LongtermSearchRequestSerializer, responses=LongtermSearchResponseSerializer
    )
    def post(self, request, worker_id):
        payload = LongtermSearchRequestSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        options = dict(payload.validated_data)
        with_graph = options.pop("include_graph")
        for unused in ("session_id", "record_access"):  # accesses are shortterm signals
            options.pop(unused, None)
        filters = {key: options.pop(key) for key in ("memory_ids", "metadata") if key in options}
        hits = search(
            worker=self.get_worker(),
            corpus="longterm",
            filters=filters,
            with_graph=with_graph,
            **options,
        )
        return Response({"mode": options["mode"], "results": [hit.as_dict() for hit in hits]})


class ShorttermEventsView(WorkerScopedMixin, APIView):
    """Usage signals on a shortterm memory (seed 001): ``access`` (with a session id),
    ``confirm``, ``correct``, ``contradict``, ``mark_important`` (optional
    ``importance`` 0-10), ``user_mention``. GET: the usage summary and latest events."""

    @extend_schema(
        parameters=[OpenApiParameter("limit", int, description="latest events, 1-200 (50)")],
        responses=UsageResponseSerializer,
    )
    def get(self, request, worker_id, memory_id):
        memory = shortterm_memory_get(worker=self.get_worker(), memory_id=memory_id)
        try:
            limit = int(request.query_params.get("limit", 50))
        except ValueError:
            limit = 0
        if not 1 <= limit <= 200:
            raise DomainError("limit must be 1 to 200", fields={"limit": "must be 1 to 200"})
        return Response(UsageResponseSerializer(memory_usage(memory=memory, limit=limit)).data)

    @extend_schema(
        request=UsageEventRequestSerializer,
        responses={201: MemoryEventSerializer},
        parameters=[IDEMPOTENCY_HEADER],
    )
    @idempotent
    def post(self, request, worker_id, memory_id):
        payload = UsageEventRequestSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        token = request.auth
        event = usage_record(
            worker=self.get_worker(),
            memory_id=memory_id,
            actor=f"token:{token.prefix}" if token is not None else "",
            **payload.validated_data,
        )
        return Response(MemoryEventSerializer(event).data, status=status.HTTP_201_CREATED)
