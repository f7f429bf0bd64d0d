from django.apps import AppConfig


class TiersConfig(AppConfig):
    name = "tiers"
    verbose_name = "Memory tiers"
    worker_api_urls = "tiers.api.urls"

    def ready(self) -> None:
        from memoryhub.signals import worker_deleting
        from tiers.services.maintenance import shortterm_worker_deleting

        worker_deleting.connect(
            shortterm_worker_deleting, dispatch_uid="tiers.shortterm_worker_deleting"
        )

    def overview(self) -> dict:
        from tiers.selectors.overview import tiers_overview

        return tiers_overview()
