from django.urls import path

from tiers.api import shortterm_views as views

urlpatterns = [
    path("", views.ShorttermListView.as_view(), name="shortterm-list"),
    path("recent", views.ShorttermRecentView.as_view(), name="shortterm-recent"),
    path("<int:memory_id>/", views.ShorttermDetailView.as_view(), name="shortterm-detail"),
    path("<int:memory_id>/chunks", views.ShorttermChunksView.as_view(), name="shortterm-chunks"),
]
