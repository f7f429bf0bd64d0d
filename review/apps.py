from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Human review"
    worker_api_urls = "review.api.urls"
    page_urls = "review.urls"
    _CHUNK, _MEMORY = "tiers.shorttermchunk", "tiers.shorttermmemory"
    portable = [
        {
            "model": "review.mergeconflict",
            "json": (
                ("conflicting_chunks", ["*", "chunk_id"], _CHUNK),
                ("conflicting_chunks", ["*", "memory_id"], _MEMORY),
                ("reasons", ["*", "chunk_id"], _CHUNK),
            ),
        },
        {
            "model": "review.conflictresolution",
            "worker": "conflict__worker",
            "json": (
                ("before", ["chunk_id"], _CHUNK),
                ("after", ["chunk_id"], _CHUNK),
                ("after", ["shortterm_memory_id"], _MEMORY),
            ),
        },
        {
            "model": "review.undoneresolution",
            "worker": "conflict__worker",
            "fresh": ("resolution_id",),
            "json": (
                ("before", ["chunk_id"], _CHUNK),
                ("after", ["chunk_id"], _CHUNK),
                ("after", ["shortterm_memory_id"], _MEMORY),
            ),
        },
    ]

    def attention(self, *, user) -> list[dict]:
        from review.selectors.attention import attention_items

        return attention_items(user=user)

    def ready(self) -> None:
        from consolidation.review_queue import plug_review_queue
        from review.services.conflicts import MergeConflictQueue

        plug_review_queue(MergeConflictQueue())
