from rest_framework import serializers

from consolidation.models import ConsolidationRun, PromotionState
from memoryhub.api.fields import StrictCharField


class ConsolidationRunSerializer(serializers.ModelSerializer):
    class Meta:
        model = ConsolidationRun
        fields = [
            "id",
            "worker",
            "kind",
            "trigger",
            "started_at",
            "finished_at",
            "duration_ms",
            "outcomes",
        ]


class SweepQueuedSerializer(serializers.Serializer):
    task_id = serializers.CharField()


class AutoResolveSerializer(serializers.Serializer):
    shortterm_memory_id = serializers.IntegerField()
    section = StrictCharField(
        required=False, help_text="one section (id or name); all sections when omitted"
    )
    limit = serializers.IntegerField(required=False, min_value=1, max_value=50, default=5)


class DifferencesSerializer(serializers.Serializer):
    new = serializers.ListField(child=serializers.DictField())
    conflicts = serializers.ListField(child=serializers.DictField())


class AutoResolveResultSerializer(serializers.Serializer):
    active_content = serializers.CharField()
    similar_chunks = serializers.ListField(child=serializers.DictField())
    entity_differences = DifferencesSerializer()
    relationship_differences = DifferencesSerializer()


class PromotionStateSerializer(serializers.ModelSerializer):
    threshold = serializers.SerializerMethodField()

    class Meta:
        model = PromotionState
        fields = [
            "memory",
            "score",
            "threshold",
            "breakdown",
            "history",
            "decided_by",
            "reason",
            "error",
            "checked_at",
            "promoted_at",
            "promotions",
        ]

    def get_threshold(self, state) -> float:
        from django.conf import settings

        return settings.MEMORYHUB_PROMOTION["promotion_threshold"]


class PromotionOutcomeSerializer(serializers.Serializer):
    memory_id = serializers.IntegerField()
    promoted = serializers.BooleanField()
    decided_by = serializers.CharField()
    reason = serializers.CharField()
    score = serializers.FloatField(allow_null=True)
    versions_created = serializers.ListField(child=serializers.IntegerField())
    versions_closed = serializers.ListField(child=serializers.IntegerField())
    graph = serializers.DictField()
    unchanged = serializers.BooleanField()
    error = serializers.CharField(allow_blank=True)
