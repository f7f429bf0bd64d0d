from django.contrib import admin

from review.models import ConflictResolution, MergeConflict, UndoneResolution


class ResolutionInline(admin.StackedInline):
    model = ConflictResolution
    extra = 0
    can_delete = False
    readonly_fields = [
        "decision",
        "resolved_by",
        "resolved_by_token",
        "resolved_at",
        "note",
        "before",
        "after",
    ]

    def has_add_permission(self, request, obj=None):
        return False  # resolutions go through the review services


class UndoneInline(admin.TabularInline):
    model = UndoneResolution
    extra = 0
    can_delete = False
    fields = ["decision", "resolved_by", "resolved_at", "undone_by", "undone_at", "note"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False  # undone through the decision log (review.services.conflicts)


@admin.register(MergeConflict)
class MergeConflictAdmin(admin.ModelAdmin):
    list_display = ["id", "worker", "section_name", "status", "created_at", "resolved_at"]
    list_filter = ["status", "worker"]
    search_fields = ["section_name", "section_content"]
    readonly_fields = ["status", "created_at", "resolved_at"]
    raw_id_fields = ["active_memory", "shortterm_memory"]
    inlines = [ResolutionInline, UndoneInline]
