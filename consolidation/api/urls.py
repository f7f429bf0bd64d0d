from django.urls import path

from consolidation.api import views

app_name = "consolidation-api"

urlpatterns = [
    path(
        "active/<int:memory_id>/consolidate",
        views.ActiveMemoryConsolidateView.as_view(),
        name="active-consolidate",
    ),
    path(
        "active/<int:memory_id>/auto-resolve",
        views.ActiveMemoryAutoResolveView.as_view(),
        name="auto-resolve",
    ),
    path("consolidation/runs", views.ConsolidationRunListView.as_view(), name="run-list"),
    path(
        "active/<int:memory_id>/migrate",
        views.ActiveMemoryMigrateView.as_view(),
        name="active-migrate",
    ),
    path("migrations/", views.MigrationRunListView.as_view(), name="migration-list"),
    path(
        "shortterm/<int:memory_id>/promotion",
        views.ShorttermPromotionView.as_view(),
        name="shortterm-promotion",
    ),
    path("promotions/", views.PromotionSweepView.as_view(), name="promotion-list"),
    path("retention/", views.RetentionSweepView.as_view(), name="retention-list"),
]
