from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Human review"
    worker_api_urls = "review.api.urls"
    page_urls = "review.urls"

    def attention(self, *, user) -> list[dict]:
        from review.selectors.attention import attention_items

        return attention_items(user=user)

    def ready(self) -> None:
        from consolidation.review_queue import plug_review_queue
        from review.services.conflicts import MergeConflictQueue

        plug_review_queue(MergeConflictQueue())
