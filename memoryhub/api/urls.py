from django.urls import include, path

from memoryhub.api import views
from memoryhub.contributions import contributions

app_name = "api"

urlpatterns = [
    path("", views.ApiRootView.as_view(), name="root"),
    path("health", views.HealthView.as_view(), name="health"),
    path("me", views.MeView.as_view(), name="me"),
    path("audit", views.AuditLogView.as_view(), name="audit"),
    path("workers/", views.WorkerListView.as_view(), name="worker-list"),
    path("workers/<int:worker_id>/", views.WorkerDetailView.as_view(), name="worker-detail"),
    path("workers/<int:worker_id>/tokens/", views.WorkerTokenView.as_view(), name="worker-tokens"),
    # Each app's endpoints at the API root (``AppConfig.api_urls``), in its own namespace.
    *(path("", include(module)) for module in contributions("api_urls")),
    # Each app's worker-scoped endpoints (``AppConfig.worker_api_urls``), in its own namespace.
    *(
        path("workers/<int:worker_id>/", include(module))
        for module in contributions("worker_api_urls")
    ),
]
