"""The agents app's endpoints at the API root, mounted under ``/api/v1/``."""

from django.urls import path

from agents.api import tool_views

app_name = "agents-root-api"

urlpatterns = [
    path("tools", tool_views.ToolListView.as_view(), name="tools"),
]
