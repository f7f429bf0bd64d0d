from rest_framework import serializers

from agents.models import AgentRun
from memoryhub.api.fields import StrictCharField

MAX_MESSAGE = 20000


class UpdaterRequestSerializer(serializers.Serializer):
    message = StrictCharField(
        max_length=MAX_MESSAGE,
        help_text="the new information or instruction, e.g. 'Fixed the token expiry bug in "
        "auth.py line 87'",
    )
    active_memory_id = serializers.IntegerField(
        required=False, min_value=1, help_text="the active memory the message is about, if known"
    )


class MemorizerRequestSerializer(serializers.Serializer):
    active_memory_id = serializers.IntegerField(min_value=1, help_text="the memory to consolidate")
    shortterm_memory_id = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="the shortterm memory to consolidate into; omitted: the agent chooses among "
        "the most similar (or creates one)",
    )
    message = StrictCharField(
        required=False, allow_blank=True, max_length=MAX_MESSAGE, help_text="extra instruction"
    )


class RetrieverRequestSerializer(serializers.Serializer):
    query = StrictCharField(max_length=MAX_MESSAGE, help_text="the question")


class MemoryUsedSerializer(serializers.Serializer):
    tier = serializers.ChoiceField(choices=["active", "shortterm", "longterm"])
    id = serializers.IntegerField()
    title = serializers.CharField()


class AgentRunSerializer(serializers.ModelSerializer):
    memories_used = serializers.SerializerMethodField(
        help_text="retriever: the memories the answer was made from (null for other agents)"
    )

    class Meta:
        model = AgentRun
        fields = [
            "id",
            "agent",
            "status",
            "input",
            "answer",
            "error",
            "memories_used",
            "steps",
            "llm_calls",
            "result",
            "started_at",
            "finished_at",
            "duration_ms",
        ]

    def get_memories_used(self, run) -> list[dict] | None:
        if run.agent != AgentRun.Agent.RETRIEVER:
            return None
        return MemoryUsedSerializer(run.result.get("memories_used", []), many=True).data
