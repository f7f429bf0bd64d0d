from rest_framework import serializers

from tiers.search import MODES


class SearchRequestSerializer(serializers.Serializer):
    query = serializers.JSONField(required=False, help_text="text to search for")
    search_queries = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        help_text="[{shortterm_memory_id, search_content}]",
    )
    mode = serializers.ChoiceField(choices=MODES, default="hybrid")
    limit = serializers.JSONField(required=False)
    min_similarity = serializers.JSONField(required=False)
    memory_ids = serializers.JSONField(required=False)
    metadata = serializers.JSONField(required=False)
    vector_weight = serializers.JSONField(required=False)
    bm25_weight = serializers.JSONField(required=False)
    exact = serializers.BooleanField(required=False, allow_null=True, default=None)
    neighbours = serializers.JSONField(
        required=False,
        help_text="hybrid: the best hits lend part of their score to the chunks up to this "
        "many places from them in their memory (0-5; MEMORYHUB_SEARCH_NEIGHBOURS)",
    )
    neighbour_weight = serializers.JSONField(
        required=False, help_text="the share of its score a hit lends to a neighbour"
    )
    neighbour_decay = serializers.JSONField(
        required=False,
        help_text="the loan's factor per place beyond the first (0-1; "
        "MEMORYHUB_SEARCH_NEIGHBOUR_DECAY)",
    )
    speaker_weight = serializers.JSONField(
        required=False,
        help_text="hybrid: chunks whose metadata speaker/author the query names score "
        "(1 + speaker_weight) times as much (0 = off; MEMORYHUB_SEARCH_SPEAKER_WEIGHT)",
    )
    session_id = serializers.CharField(
        required=False,
        max_length=200,
        allow_blank=True,
        help_text="the agent's conversation session: the hits' memories record an access in it",
    )
    record_access = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="record an access on each hit's memory (default MEMORYHUB_RECORD_SEARCH_ACCESS)",
    )
    include_graph = serializers.BooleanField(
        required=False,
        default=True,
        help_text="add to each result the entities its chunk mentions and their relationships",
    )

    def validate(self, attrs):
        if ("query" in attrs) == ("search_queries" in attrs):
            raise serializers.ValidationError(
                {"query": "give exactly one of query and search_queries"}
            )
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
    graph = serializers.DictField(
        required=False, help_text="with include_graph: {entities, relationships}"
    )


class SearchResponseSerializer(serializers.Serializer):
    mode = serializers.CharField()
    results = SearchHitSerializer(many=True)
