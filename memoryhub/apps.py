from django.apps import AppConfig


class MemoryhubConfig(AppConfig):
    name = "memoryhub"
    verbose_name = "MemoryHub: workers and API tokens"

    def schedules(self) -> list[dict]:
        from django_q.models import Schedule

        return [
            {
                "name": "purge idempotency records",
                "func": "memoryhub.tasks.purge_idempotency_records",
                "schedule_type": Schedule.HOURLY,
            }
        ]
