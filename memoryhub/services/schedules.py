"""The recurring django-q2 jobs. ``schedules_ensure`` is idempotent; ``make run`` calls it."""

from django.db import transaction
from django_q.models import Schedule

SCHEDULES = [
    {
        "name": "purge idempotency records",
        "func": "memoryhub.tasks.purge_idempotency_records",
        "schedule_type": Schedule.HOURLY,
    },
    {
        "name": "entity extraction sweep",
        "func": "graph.tasks.sweep_extractions",
        "schedule_type": Schedule.MINUTES,
        "minutes": 5,
    },
    {
        "name": "active to shortterm migration sweep",
        "func": "tiers.tasks.sweep_migrations",
        "schedule_type": Schedule.MINUTES,
        "minutes": 15,
    },
    {
        "name": "graph outbox drain",
        "func": "graph.tasks.drain_graph_outbox",
        "schedule_type": Schedule.MINUTES,
        "minutes": 1,
    },
]


@transaction.atomic
def schedules_ensure() -> list[Schedule]:
    ensured = []
    for spec in SCHEDULES:
        schedule, _ = Schedule.objects.update_or_create(
            name=spec["name"],
            defaults={
                "func": spec["func"],
                "schedule_type": spec["schedule_type"],
                "minutes": spec.get("minutes"),
                "repeats": -1,
            },
        )
        ensured.append(schedule)
    return ensured
