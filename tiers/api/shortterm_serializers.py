from rest_framework import serializers

from memoryhub.api.fields import JSONObjectField, StrictCharField
from tiers.memory_graph import memory_graph
from tiers.models import ShorttermChunk, ShorttermMemory


class ShorttermChunkSerializer(serializers.ModelSerializer):
    class Meta:
        model = ShorttermChunk
        fields = ["id", "chunk_order", "content", "metadata", "created_at", "updated_at"]


class ShorttermMemorySummarySerializer(serializers.ModelSerializer):
    chunk_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = ShorttermMemory
        fields = ["id", "title", "summary", "metadata", "chunk_count", "created_at", "last_updated"]


class ShorttermMemorySerializer(serializers.ModelSerializer):
    chunks = ShorttermChunkSerializer(many=True, read_only=True)
    graph = serializers.SerializerMethodField()

    class Meta:
        model = ShorttermMemory
        fields = [
            "id",
            "worker",
            "title",
            "summary",
            "metadata",
            "created_at",
            "last_updated",
            "extraction_status",
            "chunks",
            "graph",
        ]

    def get_graph(self, memory) -> dict:
        return memory_graph().of_memories(worker=memory.worker, memory_ids=[memory.pk])[memory.pk]


class ShorttermCreateSerializer(serializers.Serializer):
    title = StrictCharField(max_length=500)
    summary = StrictCharField(required=False, allow_blank=True, default="")
    metadata = JSONObjectField(required=False)
    content = serializers.JSONField(required=False, help_text="text to chunk")
    chunks = serializers.ListField(child=serializers.JSONField(), required=False)

    def validate(self, attrs):
        if "content" not in attrs and not attrs.get("chunks"):
            raise serializers.ValidationError({"content": "give content or chunks"})
        return attrs


class ShorttermUpdateSerializer(serializers.Serializer):
    title = StrictCharField(max_length=500, required=False)
    summary = StrictCharField(required=False, allow_blank=True)
    metadata = JSONObjectField(required=False)

    def validate(self, attrs):
        if not attrs:
            raise serializers.ValidationError("give at least one of title, summary, metadata")
        return attrs


class ChunksAddSerializer(serializers.Serializer):
    chunks = serializers.ListField(child=serializers.JSONField(), allow_empty=False)


class ChunksUpdateSerializer(serializers.Serializer):
    updates = serializers.ListField(
        child=serializers.JSONField(), allow_empty=False, help_text="[{chunk_id, new_content}]"
    )
