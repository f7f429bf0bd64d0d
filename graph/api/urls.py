"""The graph's endpoints, mounted under ``/api/v1/workers/<worker_id>/``."""

from django.urls import path

from graph.api import views

app_name = "graph-api"

urlpatterns = [
    path("shortterm/<int:memory_id>/graph", views.MemoryGraphView.as_view(), name="memory-graph"),
    path("entities/", views.EntitySearchView.as_view(), name="entity-search"),
    path("entities/<int:entity_id>/", views.EntityDetailView.as_view(), name="entity-detail"),
    path(
        "entities/<int:entity_id>/neighbourhood",
        views.NeighbourhoodView.as_view(),
        name="entity-neighbourhood",
    ),
    path(
        "entities/<int:entity_id>/history",
        views.EntityHistoryView.as_view(),
        name="entity-history",
    ),
    path("graph/path", views.PathView.as_view(), name="graph-path"),
    path("graph/history", views.HistoryView.as_view(), name="graph-history"),
]
