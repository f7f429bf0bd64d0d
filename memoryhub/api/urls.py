from django.urls import include, path

from memoryhub.api import views
from tiers.api.shortterm_views import ShorttermSearchView
from tiers.api.views import MigrationRunListView

app_name = "api"

urlpatterns = [
    path("", views.ApiRootView.as_view(), name="root"),
    path("health", views.HealthView.as_view(), name="health"),
    path("me", views.MeView.as_view(), name="me"),
    path("workers/", views.WorkerListView.as_view(), name="worker-list"),
    path("workers/<int:worker_id>/", views.WorkerDetailView.as_view(), name="worker-detail"),
    path("workers/<int:worker_id>/tokens/", views.WorkerTokenView.as_view(), name="worker-tokens"),
    path("workers/<int:worker_id>/active/", include("tiers.api.urls")),
    path("workers/<int:worker_id>/shortterm/", include("tiers.api.shortterm_urls")),
    path("workers/<int:worker_id>/", include("graph.api.urls")),
    path("workers/<int:worker_id>/conflicts/", include("review.api.urls")),
    path("workers/<int:worker_id>/migrations/", MigrationRunListView.as_view(), name="migration-list"),
    path(
        "workers/<int:worker_id>/search/shortterm",
        ShorttermSearchView.as_view(),
        name="shortterm-search",
    ),
]
