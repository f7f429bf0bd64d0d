from django.contrib import admin
from django.template.loader import render_to_string

from tiers.models import ActiveMemory
from tiers.selectors.active import active_memory_sections_view


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
        return render_to_string("tiers/admin_sections.html", {"sections": active_memory_sections_view(obj)})
