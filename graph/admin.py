from django.contrib import admin

from graph.models import Entity, Relationship


@admin.register(Entity)
class EntityAdmin(admin.ModelAdmin):
    list_display = ["name", "type", "tier", "worker", "source_memory", "confidence", "last_seen"]
    list_filter = ["tier", "type", "worker"]
    search_fields = ["name", "normalized_name", "description"]
    raw_id_fields = ["source_memory"]
    readonly_fields = ["normalized_name", "first_seen", "last_seen"]


@admin.register(Relationship)
class RelationshipAdmin(admin.ModelAdmin):
    list_display = ["from_entity", "type", "to_entity", "tier", "worker", "confidence", "strength"]
    list_filter = ["tier", "type", "worker"]
    search_fields = ["type", "description", "from_entity__name", "to_entity__name"]
    raw_id_fields = ["from_entity", "to_entity", "source_memory"]
