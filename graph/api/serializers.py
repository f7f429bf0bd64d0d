from rest_framework import serializers


class GraphUpdateSerializer(serializers.Serializer):
    entities = serializers.JSONField(
        required=False, help_text="[{id, name?, type?, description?, confidence?}]"
    )
    relationships = serializers.JSONField(
        required=False, help_text="[{id, type?, description?, confidence?, strength?}]"
    )
    new_relationships = serializers.JSONField(
        required=False, help_text="[{from_id, to_id, type, description?, confidence?, strength?}]"
    )


class EntitySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    type = serializers.CharField()
    tier = serializers.CharField()
    description = serializers.CharField()
    confidence = serializers.FloatField()
    importance = serializers.FloatField(allow_null=True)
    source_memory_id = serializers.IntegerField(allow_null=True)
    first_seen = serializers.DateTimeField()
    last_seen = serializers.DateTimeField()
    edited = serializers.BooleanField(help_text="changed or created by an agent; kept as it is")


class RelationshipSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    from_id = serializers.IntegerField()
    to_id = serializers.IntegerField()
    type = serializers.CharField()
    tier = serializers.CharField()
    description = serializers.CharField()
    confidence = serializers.FloatField()
    strength = serializers.FloatField()
    source_memory_id = serializers.IntegerField(allow_null=True)
    first_observed = serializers.DateTimeField(allow_null=True)
    last_observed = serializers.DateTimeField(allow_null=True)
    start_date = serializers.DateTimeField(allow_null=True)
    last_updated = serializers.DateTimeField(allow_null=True)
    edited = serializers.BooleanField(help_text="changed or created by an agent; kept as it is")


class NeighbourhoodSerializer(serializers.Serializer):
    center = serializers.IntegerField()
    entities = EntitySerializer(many=True, help_text="each with its distance (hops)")
    relationships = RelationshipSerializer(many=True)


class PathSerializer(serializers.Serializer):
    found = serializers.BooleanField()
    entities = EntitySerializer(many=True)
    relationships = RelationshipSerializer(many=True)


class GraphSerializer(serializers.Serializer):
    entities = EntitySerializer(many=True)
    relationships = RelationshipSerializer(many=True)


class EntityHistorySerializer(serializers.Serializer):
    entity = EntitySerializer()
    observations = EntitySerializer(many=True)
    longterm = EntitySerializer(allow_null=True)
    relationship_versions = RelationshipSerializer(many=True)
