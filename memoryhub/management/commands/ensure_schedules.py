from django.core.management.base import BaseCommand

from memoryhub.services.schedules import schedules_ensure


class Command(BaseCommand):
    help = "Create or update MemoryHub's recurring django-q2 jobs."

    def handle(self, *args, **options):
        for schedule in schedules_ensure():
            self.stdout.write(
                f"schedule {schedule.name!r}: {schedule.func} "
                f"({schedule.get_schedule_type_display()})"
            )
