from django.contrib import admin
from django.template.loader import render_to_string
from django.urls import reverse

from consolidation.models import ConsolidationRun, PromotionState
from tiers.admin import ReadOnlyAdmin


def _admin_url(name: str, pk) -> str | None:
    return reverse(f"admin:{name}", args=[pk]) if pk else None


@admin.register(ConsolidationRun)
class ConsolidationRunAdmin(admin.ModelAdmin):
    list_display = ["id", "worker", "trigger", "started_at", "duration_ms", "summary"]
    list_filter = ["trigger", "worker"]
    readonly_fields = [
        "worker",
        "trigger",
        "started_at",
        "finished_at",
        "duration_ms",
        "outcomes_table",
    ]
    exclude = ["outcomes"]

    def has_add_permission(self, request):
        return False

    @admin.display(description="Sections")
    def outcomes_table(self, obj):
        colours = {
            "merged": "#2e7d32",
            "created": "#1565c0",
            "conflict": "#c62828",
            "error": "#c62828",
        }
        rows = []
        for outcome in obj.outcomes:
            ids = outcome.get("ids") or {}
            rows.append(
                {
                    **outcome,
                    **ids,
                    "colour": colours.get(outcome["outcome"], "#666"),
                    "detail": outcome.get("detail") or ids.get("detail", ""),
                    "active_url": _admin_url(
                        "tiers_activememory_change", outcome.get("active_memory_id")
                    ),
                    "memory_url": _admin_url(
                        "tiers_shorttermmemory_change", ids.get("shortterm_memory_id")
                    ),
                    "conflict_url": _admin_url(
                        "review_mergeconflict_change", ids.get("conflict_id")
                    ),
                }
            )
        return render_to_string("consolidation/admin_run_outcomes.html", {"rows": rows})

    @admin.display(description="Outcomes")
    def summary(self, obj):
        counts: dict[str, int] = {}
        for outcome in obj.outcomes:
            counts[outcome["outcome"]] = counts.get(outcome["outcome"], 0) + 1
        return ", ".join(f"{n} {name}" for name, n in sorted(counts.items())) or "—"


class PromotedFilter(admin.SimpleListFilter):
    title = "promoted"
    parameter_name = "promoted"

    def lookups(self, request, model_admin):
        return [("yes", "Promoted"), ("no", "Never promoted")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(promoted_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(promoted_at__isnull=True)
        return queryset


@admin.register(PromotionState)
class PromotionStateAdmin(ReadOnlyAdmin):
    list_display = [
        "memory",
        "worker",
        "score",
        "decided_by",
        "promotions",
        "checked_at",
        "promoted_at",
    ]
    list_filter = ["decided_by", PromotedFilter, "worker"]
    search_fields = ["memory__title", "reason", "error"]
    date_hierarchy = "checked_at"
    list_select_related = ["memory", "worker"]
    fields = [
        "memory",
        "worker",
        "score",
        "breakdown",
        "decided_by",
        "reason",
        "error",
        "checked_at",
        "promoted_at",
        "promotions",
        "history",
    ]
