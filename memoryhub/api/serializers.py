from rest_framework import serializers

from memoryhub.api.fields import JSONObjectField, StrictCharField
from memoryhub.models import ApiToken, AuditEvent, Worker


class WorkerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Worker
        fields = ["id", "name", "description", "metadata", "created_at", "updated_at"]


class WorkerInputSerializer(serializers.Serializer):
    name = StrictCharField(max_length=200)
    description = StrictCharField(required=False, allow_blank=True, default="")
    metadata = JSONObjectField(required=False, default=dict)


class WorkerUpdateSerializer(serializers.Serializer):
    name = StrictCharField(max_length=200, required=False)
    description = StrictCharField(required=False, allow_blank=True)
    metadata = JSONObjectField(required=False)


class TokenIssueSerializer(serializers.Serializer):
    name = StrictCharField(required=False, allow_blank=True, default="", max_length=200)


class IssuedTokenSerializer(serializers.ModelSerializer):
    key = serializers.CharField(help_text="Shown once; store it now.")

    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "worker", "created_at", "key"]


class MeSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["worker", "staff"])
    token = serializers.DictField()
    worker = WorkerSerializer(allow_null=True)
    user = serializers.CharField(allow_null=True)


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded", "down"])
    database = serializers.DictField()
    pgvector = serializers.DictField()
    queue = serializers.DictField()
    neo4j = serializers.DictField()


class AuditEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = AuditEvent
        fields = ["id", "at", "actor", "action", "target", "worker", "detail"]
