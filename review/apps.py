from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Human review"
    worker_api_urls = "review.api.urls"
