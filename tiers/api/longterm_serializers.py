from rest_framework import serializers

from tiers.api.search_serializers import SearchHitSerializer, SearchRequestSerializer
from tiers.models import LongtermChunk, MemoryEvent, MemoryUsage


class LongtermChunkSerializer(serializers.ModelSerializer):
    is_current = serializers.BooleanField(read_only=True)

    class Meta:
        model = LongtermChunk
        fields = [
            "id",
            "shortterm_memory_id",
            "chunk_order",
            "title",
            "content",
            "confidence",
            "importance",
            "memory_type",
            "start_date",
            "end_date",
            "is_current",
            "metadata",
            "created_at",
        ]


class LongtermSearchRequestSerializer(SearchRequestSerializer):
    """A longterm search: the shortterm search's options, and the time it is about."""

    valid_at = serializers.JSONField(
        required=False, help_text="ISO 8601: the versions valid then (default: the current ones)"
    )
    time_range = serializers.JSONField(
        required=False, help_text="[start, end] or {start, end} (ISO 8601; either may be null)"
    )
    confidence_threshold = serializers.JSONField(
        required=False, help_text="0-1: only versions at least this confident"
    )

    def validate(self, attrs):
        if "search_queries" in attrs:
            raise serializers.ValidationError({"search_queries": "longterm search takes a query"})
        if "query" not in attrs:
            raise serializers.ValidationError({"query": "required"})
        return attrs


class LongtermHitSerializer(SearchHitSerializer):
    memory_id = serializers.IntegerField(help_text="the source shortterm memory")
    start_date = serializers.DateTimeField()
    end_date = serializers.DateTimeField(allow_null=True)
    confidence = serializers.FloatField()


class LongtermSearchResponseSerializer(serializers.Serializer):
    mode = serializers.CharField()
    results = LongtermHitSerializer(many=True)


class UsageEventRequestSerializer(serializers.Serializer):
    kind = serializers.JSONField(
        help_text="access, confirm, correct, contradict, mark_important or user_mention"
    )
    session_id = serializers.JSONField(required=False)
    chunk_id = serializers.JSONField(required=False)
    detail = serializers.JSONField(required=False)
    importance = serializers.JSONField(required=False, help_text="0-10, with mark_important")


class MemoryEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = MemoryEvent
        fields = ["id", "memory", "chunk_id", "kind", "session_id", "actor", "detail", "created_at"]


class MemoryUsageSerializer(serializers.ModelSerializer):
    reinforcement_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = MemoryUsage
        fields = [
            "memory",
            "access_count",
            "session_count",
            "sessions",
            "access_times",
            "first_accessed_at",
            "last_accessed_at",
            "confirmations",
            "corrections",
            "contradictions",
            "last_contradiction_at",
            "reinforcements",
            "reinforcement_count",
            "user_mentions",
            "importance_marks",
            "importance",
            "updated_at",
        ]


class UsageResponseSerializer(serializers.Serializer):
    usage = MemoryUsageSerializer(allow_null=True)
    events = MemoryEventSerializer(many=True)
