from rest_framework import serializers

from memoryhub.api.fields import JSONObjectField, StrictCharField
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
        fields = ["id", "worker", "title", "summary", "metadata", "created_at", "last_updated",
                  "extraction_status", "chunks", "graph"]

    def get_graph(self, memory) -> dict:
        from graph.selectors.graph import memories_graph

        return memories_graph(worker=memory.worker, memory_ids=[memory.pk])[memory.pk]


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
    updates = serializers.ListField(child=serializers.JSONField(), allow_empty=False,
                                    help_text="[{chunk_id, new_content}]")


class SearchRequestSerializer(serializers.Serializer):
    query = serializers.JSONField(required=False, help_text="text to search for")
    search_queries = serializers.ListField(
        child=serializers.JSONField(), required=False, help_text="[{shortterm_memory_id, search_content}]"
    )
    mode = serializers.ChoiceField(choices=["vector", "bm25", "hybrid"], default="hybrid")
    limit = serializers.JSONField(required=False)
    min_similarity = serializers.JSONField(required=False)
    memory_ids = serializers.JSONField(required=False)
    metadata = serializers.JSONField(required=False)
    vector_weight = serializers.JSONField(required=False)
    bm25_weight = serializers.JSONField(required=False)
    exact = serializers.BooleanField(required=False, allow_null=True, default=None)
    include_graph = serializers.BooleanField(required=False, default=True,
                                             help_text="add to each result the entities its chunk mentions and their relationships")

    def validate(self, attrs):
        if ("query" in attrs) == ("search_queries" in attrs):
            raise serializers.ValidationError({"query": "give exactly one of query and search_queries"})
        return attrs


class SearchHitSerializer(serializers.Serializer):
    chunk_id = serializers.IntegerField()
    memory_id = serializers.IntegerField()
    memory_title = serializers.CharField()
    chunk_order = serializers.IntegerField()
    content = serializers.CharField()
    metadata = serializers.DictField()
    similarity = serializers.FloatField(allow_null=True)
    bm25_score = serializers.FloatField()
    fused_score = serializers.FloatField(allow_null=True)
    vector_rank = serializers.IntegerField(allow_null=True)
    bm25_rank = serializers.IntegerField(allow_null=True)
    rank = serializers.IntegerField()


class SearchResponseSerializer(serializers.Serializer):
    mode = serializers.CharField()
    results = SearchHitSerializer(many=True)
