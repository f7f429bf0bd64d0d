from django.urls import path

from tiers.api import views

urlpatterns = [
    path("", views.ActiveMemoryListView.as_view(), name="active-list"),
    path("detailed", views.ActiveMemoryDetailedView.as_view(), name="active-detailed"),
    path("<int:memory_id>/", views.ActiveMemoryDetailView.as_view(), name="active-detail"),
    path("<int:memory_id>/sections", views.ActiveMemorySectionsView.as_view(), name="active-sections"),
    path("<int:memory_id>/migrate", views.ActiveMemoryMigrateView.as_view(), name="active-migrate"),
    path("<int:memory_id>/auto-resolve", views.ActiveMemoryAutoResolveView.as_view(), name="active-auto-resolve"),
    path(
        "<int:memory_id>/sections/<str:section>",
        views.ActiveMemorySectionView.as_view(),
        name="active-section",
    ),
]
