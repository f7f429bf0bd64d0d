"""The review queue's endpoints, mounted under ``/api/v1/workers/<worker_id>/``."""

from django.urls import path

from review.api import views

app_name = "review-api"

urlpatterns = [
    path("conflicts/", views.ConflictListView.as_view(), name="conflict-list"),
    path(
        "conflicts/<int:conflict_id>/", views.ConflictDetailView.as_view(), name="conflict-detail"
    ),
    path(
        "conflicts/<int:conflict_id>/resolve",
        views.ConflictResolveView.as_view(),
        name="conflict-resolve",
    ),
]
