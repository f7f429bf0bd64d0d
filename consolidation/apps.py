from django.apps import AppConfig


class ConsolidationConfig(AppConfig):
    name = "consolidation"
    verbose_name = "Consolidation: moving knowledge between tiers"
    worker_api_urls = "consolidation.api.urls"
    portable = [
        {"model": "consolidation.consolidationrun"},
        {"model": "consolidation.promotionstate"},
    ]

    def ready(self) -> None:
        from consolidation.services.active_to_shortterm import capacity_check_on_update
        from consolidation.services.section_readings import (
            read_chunks_on_write,
            read_sections_on_update,
        )
        from tiers.signals import active_sections_updated, shortterm_chunks_written

        active_sections_updated.connect(
            capacity_check_on_update, dispatch_uid="consolidation.capacity_check"
        )
        active_sections_updated.connect(
            read_sections_on_update, dispatch_uid="consolidation.read_sections"
        )
        shortterm_chunks_written.connect(
            read_chunks_on_write, dispatch_uid="consolidation.read_chunks"
        )

    def health_report(self) -> dict:
        from consolidation.services.section_readings import read_on_write_status
        from memoryhub.providers.judge_embeddings import judge_embedder_status

        return {
            "judge_embedder": judge_embedder_status(),
            "read_on_write": read_on_write_status(load=False),
        }

    def schedules(self) -> list[dict]:
        from django.conf import settings
        from django_q.models import Schedule

        promotion = settings.MEMORYHUB_PROMOTION
        return [
            {
                "name": "active to shortterm migration sweep",
                "func": "consolidation.tasks.sweep_migrations",
                "schedule_type": Schedule.MINUTES,
                "minutes": 15,
            },
            {
                "name": "shortterm to longterm promotion sweep",
                "func": "consolidation.tasks.sweep_promotions",
                "schedule_type": Schedule.MINUTES,
                "minutes": promotion["sweep_minutes"],
            },
            {
                "name": "shortterm retention sweep",
                "func": "consolidation.tasks.sweep_retention",
                "schedule_type": Schedule.MINUTES,
                "minutes": promotion["retention_hours"] * 60,
            },
        ]
