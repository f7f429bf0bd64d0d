"""The agents app's endpoints, mounted under ``/api/v1/workers/<worker_id>/``."""

from django.urls import path

from agents.api import agent_views, tool_views

app_name = "agents-api"

urlpatterns: list = [
    path("tools/<str:name>", tool_views.ToolInvokeView.as_view(), name="tool-invoke"),
    # The memory agents (seed 003), run in-process.
    path("agents/updater", agent_views.UpdaterView.as_view(), name="agent-updater"),
    path("agents/memorizer", agent_views.MemorizerView.as_view(), name="agent-memorizer"),
    path("agents/retriever", agent_views.RetrieverView.as_view(), name="agent-retriever"),
    path("agents/runs", agent_views.AgentRunListView.as_view(), name="agent-run-list"),
    path("agents/runs/<int:run_id>", agent_views.AgentRunDetailView.as_view(), name="agent-run"),
]
