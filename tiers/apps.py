from django.apps import AppConfig


class TiersConfig(AppConfig):
    name = "tiers"
    verbose_name = "Memory tiers"
    worker_api_urls = "tiers.api.urls"
    # A worker's memory in an export (memoryhub.services.portability), in load order.
    portable = [
        {"model": "tiers.activememory"},
        {"model": "tiers.shorttermmemory"},
        {"model": "tiers.shorttermchunk"},
        {"model": "tiers.longtermchunk", "ids": {"shortterm_memory_id": "tiers.shorttermmemory"}},
        {"model": "tiers.memoryusage"},
        {"model": "tiers.memoryevent", "ids": {"chunk_id": "tiers.shorttermchunk"}},
    ]

    def after_import(self, **kwargs) -> dict:
        from tiers.services.portability import tiers_after_import

        return tiers_after_import(**kwargs)

    def ready(self) -> None:
        from memoryhub.signals import worker_deleting
        from tiers.services.maintenance import shortterm_worker_deleting

        worker_deleting.connect(
            shortterm_worker_deleting, dispatch_uid="tiers.shortterm_worker_deleting"
        )

    def overview(self) -> dict:
        from tiers.selectors.overview import tiers_overview

        return tiers_overview()
