from django.contrib import admin
from django.db.models import Count
from django.template.loader import render_to_string

from tiers.models import (
    ActiveMemory,
    LongtermChunk,
    MemoryEvent,
    MemoryUsage,
    ShorttermChunk,
    ShorttermMemory,
)
from tiers.selectors.active import active_memory_sections_view
from tiers.services.shortterm import shortterm_memory_delete


@admin.register(ActiveMemory)
class ActiveMemoryAdmin(admin.ModelAdmin):
    list_display = ["title", "worker", "section_count", "total_updates", "updated_at"]
    list_filter = ["worker"]
    search_fields = ["title", "description"]
    date_hierarchy = "updated_at"
    readonly_fields = ["sections_readable", "created_at", "updated_at"]
    fieldsets = [
        (None, {"fields": ["worker", "title", "description", "metadata"]}),
        ("Sections", {"fields": ["sections_readable"]}),
        ("Template", {"classes": ["collapse"], "fields": ["template_content"]}),
        ("Raw", {"classes": ["collapse"], "fields": ["sections", "created_at", "updated_at"]}),
    ]

    def get_readonly_fields(self, request, obj=None):
        # Sections and template change through the services (counts, validation),
        # not by editing raw JSON.
        if obj is not None:
            return [*self.readonly_fields, "worker", "template_content", "sections"]
        return self.readonly_fields

    def has_add_permission(self, request):
        return False  # created by agents through the API (template validation)

    @admin.display(description="Sections")
    def section_count(self, obj):
        return len(obj.sections)

    @admin.display(description="Updates")
    def total_updates(self, obj):
        return obj.total_update_count

    @admin.display(description="Sections")
    def sections_readable(self, obj):
        return render_to_string(
            "tiers/admin_sections.html", {"sections": active_memory_sections_view(obj)}
        )


class ShorttermChunkInline(admin.TabularInline):
    model = ShorttermChunk
    fields = ["chunk_order", "content", "metadata", "updated_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False
    ordering = ["chunk_order"]

    def has_add_permission(self, request, obj=None):
        return False  # chunks are embedded and indexed by the services

    def get_queryset(self, request):
        return super().get_queryset(request).defer("embedding")


@admin.register(ShorttermMemory)
class ShorttermMemoryAdmin(admin.ModelAdmin):
    list_display = ["title", "worker", "chunk_count", "last_updated"]
    list_filter = ["worker"]
    search_fields = ["title", "summary", "chunks__content"]
    date_hierarchy = "last_updated"
    readonly_fields = ["worker", "created_at", "last_updated"]
    fields = ["worker", "title", "summary", "metadata", "created_at", "last_updated"]
    inlines = [ShorttermChunkInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_chunks=Count("chunks"))

    def has_add_permission(self, request):
        return False  # created through the API (chunking, embeddings, BM25 postings)

    def get_search_results(self, request, queryset, search_term):
        queryset, _ = super().get_search_results(request, queryset, search_term)
        return queryset, True  # searching chunk content can repeat a memory

    def delete_model(self, request, obj):
        shortterm_memory_delete(memory=obj)

    def delete_queryset(self, request, queryset):
        for memory in queryset:
            shortterm_memory_delete(memory=memory)

    @admin.display(description="Chunks", ordering="n_chunks")
    def chunk_count(self, obj):
        return obj.n_chunks


class ReadOnlyAdmin(admin.ModelAdmin):
    """To look, never to edit: these rows are written by the services only (versions,
    usage summaries and events, promotion scores)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class CurrentFilter(admin.SimpleListFilter):
    title = "validity"
    parameter_name = "current"

    def lookups(self, request, model_admin):
        return [("yes", "Current"), ("no", "Ended")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(end_date__isnull=True)
        if self.value() == "no":
            return queryset.filter(end_date__isnull=False)
        return queryset


@admin.register(LongtermChunk)
class LongtermChunkAdmin(ReadOnlyAdmin):
    list_display = [
        "title",
        "worker",
        "shortterm_memory_id",
        "chunk_order",
        "memory_type",
        "confidence",
        "importance",
        "start_date",
        "end_date",
        "current",
    ]
    list_filter = [CurrentFilter, "worker", "memory_type"]
    search_fields = ["content", "title"]
    date_hierarchy = "start_date"
    list_select_related = ["worker"]
    fields = [
        "worker",
        "title",
        "shortterm_memory_id",
        "chunk_order",
        "content",
        "confidence",
        "importance",
        "memory_type",
        "start_date",
        "end_date",
        "metadata",
        "content_hash",
        "created_at",
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).defer("embedding")

    @admin.display(description="Current", boolean=True, ordering="end_date")
    def current(self, obj):
        return obj.end_date is None


@admin.register(MemoryUsage)
class MemoryUsageAdmin(ReadOnlyAdmin):
    list_display = [
        "memory",
        "worker",
        "access_count",
        "session_count",
        "confirmations",
        "corrections",
        "contradictions",
        "reinforcements",
        "user_mentions",
        "importance",
        "updated_at",
    ]
    list_filter = ["worker"]
    search_fields = ["memory__title"]
    list_select_related = ["memory", "worker"]


@admin.register(MemoryEvent)
class MemoryEventAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "kind", "memory", "worker", "session_id", "actor"]
    list_filter = ["kind", "worker"]
    search_fields = ["memory__title", "session_id", "actor", "detail"]
    date_hierarchy = "created_at"
    list_select_related = ["memory", "worker"]
