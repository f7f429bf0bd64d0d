from rest_framework import serializers

from consolidation.models import ConsolidationRun
from memoryhub.api.fields import StrictCharField


class ConsolidationRunSerializer(serializers.ModelSerializer):
    class Meta:
        model = ConsolidationRun
        fields = ["id", "worker", "trigger", "started_at", "finished_at", "duration_ms", "outcomes"]


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
