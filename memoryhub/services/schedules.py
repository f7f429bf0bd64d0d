"""The recurring django-q2 jobs, declared by each app's ``AppConfig.schedules()``
(``memoryhub.contributions``). ``schedules_ensure`` is idempotent; ``make run`` calls it."""

from django.db import transaction
from django_q.models import Schedule

from memoryhub.contributions import contributions


def schedule_specs() -> list[dict]:
    return [spec for schedules in contributions("schedules") for spec in schedules()]


@transaction.atomic
def schedules_ensure() -> list[Schedule]:
    ensured = []
    for spec in schedule_specs():
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
