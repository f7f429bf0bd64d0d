from django.contrib import admin

from agents.models import AgentRun
from tiers.admin import ReadOnlyAdmin


@admin.register(AgentRun)
class AgentRunAdmin(ReadOnlyAdmin):
    """The memory agents' runs, to look at: what each was asked, its tool calls, its end."""

    list_display = ["id", "worker", "agent", "status", "llm_calls", "started_at", "duration_ms"]
    list_filter = ["agent", "status", "worker"]
    search_fields = ["answer", "error"]
