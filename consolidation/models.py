from django.db import models

from memoryhub.models import Worker


class Decision(models.TextChoices):
    """A reviewer's decision on a conflict consolidation found (what each does to memory:
    ``consolidation.services.decisions``; the review queue records them)."""

    ACCEPT_INCOMING = "accept_incoming", "Accept incoming"
    KEEP_EXISTING = "keep_existing", "Keep existing"
    MERGE_EDITED = "merge_edited", "Merge with edited text"
    SEPARATE_MEMORY = "separate_memory", "Store as a separate memory"
    DISMISS = "dismiss", "Dismiss"


class ConsolidationRun(models.Model):
    """One pass of consolidation over a worker (or one active memory): today Active →
    Shortterm, each section merged, sent to review as a conflict, or stored new.
    (Its table keeps the name it had as ``tiers.MigrationRun``.)"""

    class Trigger(models.TextChoices):
        SWEEP = "sweep"
        API = "api"
        COMMAND = "command"
        CAPACITY = "capacity"

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="consolidation_runs")
    trigger = models.CharField(max_length=16, choices=Trigger.choices)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    duration_ms = models.FloatField(null=True, blank=True)
    # [{active_memory_id, section_id, outcome: merged|created|conflict|skipped|error,
    #   ids, detail, ms}]
    outcomes = models.JSONField(default=list)

    class Meta:
        db_table = "tiers_migrationrun"
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"consolidation run {self.pk} ({self.trigger})"
