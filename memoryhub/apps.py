from django.apps import AppConfig


class MemoryhubConfig(AppConfig):
    name = "memoryhub"
    verbose_name = "MemoryHub: workers and API tokens"

    def ready(self) -> None:
        from django.contrib.admin.models import LogEntry
        from django.db.models.signals import post_save

        from memoryhub.services.audit import audit_admin_change

        def mirror(sender, instance, created, **kwargs):
            if created:
                audit_admin_change(entry=instance)

        post_save.connect(mirror, sender=LogEntry, dispatch_uid="memoryhub.audit_admin", weak=False)

    def schedules(self) -> list[dict]:
        from django_q.models import Schedule

        return [
            {
                "name": "purge idempotency records",
                "func": "memoryhub.tasks.purge_idempotency_records",
                "schedule_type": Schedule.HOURLY,
            }
        ]
