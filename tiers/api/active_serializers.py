from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from memoryhub.api.fields import JSONObjectField, StrictCharField
from tiers.active_templates import parse_template
from tiers.models import ActiveMemory
from tiers.selectors.active import active_memory_sections_view


class SectionSerializer(serializers.Serializer):
    content = serializers.CharField()
    update_count = serializers.IntegerField()


class ActiveMemorySerializer(serializers.ModelSerializer):
    template = serializers.SerializerMethodField()
    sections = serializers.SerializerMethodField()

    class Meta:
        model = ActiveMemory
        fields = [
            "id",
            "worker",
            "title",
            "description",
            "template",
            "template_content",
            "sections",
            "metadata",
            "created_at",
            "updated_at",
        ]

    @extend_schema_field(serializers.DictField(child=SectionSerializer()))
    def get_sections(self, memory) -> dict:
        return {
            row["id"]: {"content": row["content"], "update_count": row["update_count"]}
            for row in active_memory_sections_view(memory)
        }

    def get_template(self, memory) -> dict:
        template = parse_template(memory.template_content)
        return {"id": template.id, "name": template.name, "version": template.version}


class ActiveMemorySummarySerializer(serializers.ModelSerializer):
    """What an agent scans to pick memories: no contents, counts per section."""

    sections = serializers.SerializerMethodField()
    total_update_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = ActiveMemory
        fields = [
            "id",
            "title",
            "description",
            "sections",
            "total_update_count",
            "metadata",
            "updated_at",
        ]

    def get_sections(self, memory) -> list[dict]:
        return [
            {
                "id": row["id"],
                "name": row["name"],
                "update_count": row["update_count"],
                "chars": len(row["content"]),
            }
            for row in active_memory_sections_view(memory)
        ]


class ActiveMemoryCreateSerializer(serializers.Serializer):
    title = StrictCharField(max_length=500)
    description = StrictCharField(required=False, allow_blank=True, default="")
    template_content = StrictCharField(trim_whitespace=False, help_text="YAML template")
    initial_sections = JSONObjectField(required=False, help_text="section id or name → markdown")
    metadata = JSONObjectField(required=False)


class ActiveMemoryUpdateSerializer(serializers.Serializer):
    title = StrictCharField(max_length=500, required=False)
    description = StrictCharField(required=False, allow_blank=True)
    template_content = StrictCharField(trim_whitespace=False, required=False)
    metadata = JSONObjectField(required=False)
    sections = JSONObjectField(required=False, help_text="section id or name → new markdown")

    def validate(self, attrs):
        if not attrs:
            raise serializers.ValidationError("give at least one field to update")
        return attrs


class SectionsUpdateSerializer(serializers.Serializer):
    sections = JSONObjectField(help_text="section id or name → new markdown")


class SectionContentSerializer(serializers.Serializer):
    content = serializers.JSONField(help_text="markdown string")


class DetailedRequestSerializer(serializers.Serializer):
    ids = serializers.ListField(child=serializers.IntegerField(min_value=1), allow_empty=False)
