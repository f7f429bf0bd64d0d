from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from memoryhub.api.mixins import WorkerScopedMixin
from tiers.api.search_views import record_accesses
from tiers.retrieval import build_context, retrieve
from tiers.search import MODES


class RetrieveRequestSerializer(serializers.Serializer):
    query = serializers.JSONField(help_text="what to look for")
    tiers = serializers.JSONField(
        required=False,
        default="auto",
        help_text='"auto" (seed 003\'s tier selection) or a list of active, shortterm, longterm',
    )
    limit = serializers.JSONField(required=False, help_text="results per tier (10)")
    mode = serializers.ChoiceField(choices=MODES, default="hybrid")
    valid_at = serializers.JSONField(
        required=False, help_text="longterm: the versions valid then (ISO 8601; default now)"
    )
    include_graph = serializers.BooleanField(
        required=False, default=False, help_text="each hit's entities and relationships"
    )
    session_id = serializers.CharField(required=False, max_length=200, allow_blank=True)
    record_access = serializers.BooleanField(required=False, allow_null=True, default=None)


class RetrieveResponseSerializer(serializers.Serializer):
    query = serializers.CharField()
    tiers = serializers.ListField(child=serializers.CharField(), help_text="searched, in order")
    reason = serializers.CharField(help_text="why these tiers")
    results = serializers.DictField(help_text="{active: [...], shortterm: [...], longterm: [...]}")


class ContextRequestSerializer(serializers.Serializer):
    query = serializers.JSONField(help_text="the task the context is for")
    max_short = serializers.JSONField(required=False, help_text="recent shortterm memories (30)")
    max_long = serializers.JSONField(required=False, help_text="longterm versions (15)")
    token_budget = serializers.JSONField(
        required=False, help_text="at most this many tokens (the embedding model's tokenizer)"
    )
    valid_at = serializers.JSONField(required=False, help_text="longterm as of (ISO 8601)")


class ContextResponseSerializer(serializers.Serializer):
    query = serializers.CharField()
    markdown = serializers.CharField()
    tokens = serializers.IntegerField()
    token_budget = serializers.IntegerField(allow_null=True)
    items = serializers.ListField(child=serializers.DictField())
    dropped = serializers.ListField(child=serializers.DictField())


class RetrieveView(WorkerScopedMixin, APIView):
    """One query across the tiers: ``tiers: "auto"`` picks them by the query (current →
    active first; recent → shortterm; general / historical / principles → longterm; longterm
    too when nothing relevant is found), or name them. Results grouped per tier."""

    @extend_schema(request=RetrieveRequestSerializer, responses=RetrieveResponseSerializer)
    def post(self, request, worker_id):
        worker = self.get_worker()
        payload = RetrieveRequestSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = dict(payload.validated_data)
        session_id, record = data.pop("session_id", ""), data.pop("record_access")
        result = retrieve(
            worker=worker,
            query=data["query"],
            tiers=data["tiers"],
            limit=data.get("limit"),
            valid_at=data.get("valid_at"),
            mode=data["mode"],
            with_graph=data["include_graph"],
        )
        record_accesses(request, worker, result.shortterm, session_id, record)
        return Response(result.as_dict())


class ContextView(WorkerScopedMixin, APIView):
    """Seed 002's combined context, ready for a prompt: "Recent context" (the latest
    shortterm memories in time order) and "Relevant past experience" (longterm, by
    relevance), within ``token_budget`` (least relevant items dropped first)."""

    @extend_schema(request=ContextRequestSerializer, responses=ContextResponseSerializer)
    def post(self, request, worker_id):
        payload = ContextRequestSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        return Response(build_context(worker=self.get_worker(), **payload.validated_data))
