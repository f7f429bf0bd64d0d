from rest_framework import serializers

from memoryhub.api.fields import StrictCharField
from review.models import ConflictResolution, MergeConflict, UndoneResolution


class ResolutionSerializer(serializers.ModelSerializer):
    resolved_by = serializers.StringRelatedField()

    class Meta:
        model = ConflictResolution
        fields = [
            "decision",
            "resolved_by",
            "resolved_by_token",
            "resolved_at",
            "note",
            "before",
            "after",
        ]


class UndoneResolutionSerializer(serializers.ModelSerializer):
    resolved_by = serializers.StringRelatedField()
    undone_by = serializers.StringRelatedField()

    class Meta:
        model = UndoneResolution
        fields = [
            "decision",
            "resolved_by",
            "resolved_by_token",
            "resolved_at",
            "note",
            "before",
            "after",
            "undone_by",
            "undone_at",
        ]


class ConflictSerializer(serializers.ModelSerializer):
    resolution = ResolutionSerializer(read_only=True, allow_null=True)
    undone_resolutions = UndoneResolutionSerializer(
        many=True, read_only=True, help_text="decisions taken on this conflict and undone since"
    )

    class Meta:
        model = MergeConflict
        fields = [
            "id",
            "worker",
            "active_memory",
            "section_id",
            "section_name",
            "section_content",
            "shortterm_memory",
            "conflicting_chunks",
            "entity_differences",
            "relationship_differences",
            "reasons",
            "status",
            "created_at",
            "resolved_at",
            "resolution",
            "undone_resolutions",
        ]


class ResolveSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=ConflictResolution.Decision.choices)
    edited_text = StrictCharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text="required for merge_edited",
    )
    note = StrictCharField(required=False, allow_blank=True, default="")
