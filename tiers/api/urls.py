"""The tiers' endpoints, mounted under ``/api/v1/workers/<worker_id>/``."""

from django.urls import path

from tiers.api import active_views, longterm_views, retrieval_views, search_views, shortterm_views

app_name = "tiers-api"

urlpatterns = [
    path("active/", active_views.ActiveMemoryListView.as_view(), name="active-list"),
    path(
        "active/detailed", active_views.ActiveMemoryDetailedView.as_view(), name="active-detailed"
    ),
    path(
        "active/<int:memory_id>/",
        active_views.ActiveMemoryDetailView.as_view(),
        name="active-detail",
    ),
    path(
        "active/<int:memory_id>/sections",
        active_views.ActiveMemorySectionsView.as_view(),
        name="active-sections",
    ),
    path(
        "active/<int:memory_id>/sections/<str:section>",
        active_views.ActiveMemorySectionView.as_view(),
        name="active-section",
    ),
    path("shortterm/", shortterm_views.ShorttermListView.as_view(), name="shortterm-list"),
    path(
        "shortterm/recent", shortterm_views.ShorttermRecentView.as_view(), name="shortterm-recent"
    ),
    path(
        "shortterm/<int:memory_id>/",
        shortterm_views.ShorttermDetailView.as_view(),
        name="shortterm-detail",
    ),
    path(
        "shortterm/<int:memory_id>/chunks",
        shortterm_views.ShorttermChunksView.as_view(),
        name="shortterm-chunks",
    ),
    path(
        "shortterm/<int:memory_id>/events",
        longterm_views.ShorttermEventsView.as_view(),
        name="shortterm-events",
    ),
    path("search/shortterm", search_views.ShorttermSearchView.as_view(), name="shortterm-search"),
    path("search/longterm", longterm_views.LongtermSearchView.as_view(), name="longterm-search"),
    path("retrieve", retrieval_views.RetrieveView.as_view(), name="retrieve"),
    path("context", retrieval_views.ContextView.as_view(), name="context"),
    path("longterm/", longterm_views.LongtermListView.as_view(), name="longterm-list"),
    path(
        "longterm/<int:chunk_id>/",
        longterm_views.LongtermDetailView.as_view(),
        name="longterm-detail",
    ),
    path(
        "longterm/history/<int:memory_id>",
        longterm_views.LongtermHistoryView.as_view(),
        name="longterm-history",
    ),
]
