from django.apps import AppConfig


class ConsolidationConfig(AppConfig):
    name = "consolidation"
    verbose_name = "Consolidation: moving knowledge between tiers"
    worker_api_urls = "consolidation.api.urls"

    def ready(self) -> None:
        from consolidation.services.active_to_shortterm import capacity_check_on_update
        from tiers.signals import active_sections_updated

        active_sections_updated.connect(
            capacity_check_on_update, dispatch_uid="consolidation.capacity_check"
        )

    def schedules(self) -> list[dict]:
        from django_q.models import Schedule

        return [
            {
                "name": "active to shortterm migration sweep",
                "func": "consolidation.tasks.sweep_migrations",
                "schedule_type": Schedule.MINUTES,
                "minutes": 15,
            }
        ]
