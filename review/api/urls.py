from django.urls import path

from review.api import views

urlpatterns = [
    path("", views.ConflictListView.as_view(), name="conflict-list"),
    path("<int:conflict_id>/", views.ConflictDetailView.as_view(), name="conflict-detail"),
    path("<int:conflict_id>/resolve", views.ConflictResolveView.as_view(), name="conflict-resolve"),
]
