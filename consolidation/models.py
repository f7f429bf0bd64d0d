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
    """One pass of consolidation over a worker: Active → Shortterm (each section merged,
    sent to review as a conflict, or stored new), Shortterm → Longterm promotion (each
    memory scored, promoted or not) or the shortterm retention sweep.
    (Its table keeps the name it had as ``tiers.MigrationRun``.)"""

    class Trigger(models.TextChoices):
        SWEEP = "sweep"
        API = "api"
        COMMAND = "command"
        CAPACITY = "capacity"
        MANUAL = "manual"

    class Kind(models.TextChoices):
        MIGRATION = "migration", "Active → Shortterm"
        PROMOTION = "promotion", "Shortterm → Longterm"
        RETENTION = "retention", "Shortterm retention"

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="consolidation_runs")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.MIGRATION)
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


class PromotionDecider(models.TextChoices):
    """What decided a memory's last promotion check (seed 001)."""

    THRESHOLD = "threshold", "Score at or above the threshold"
    BELOW = "below", "Score below the threshold"
    NOT_ELIGIBLE = "not_eligible", "Minimum requirements not met"
    TRIGGER_CORRECTION = "trigger_correction", "Trigger: a user correction"
    TRIGGER_IMPORTANT = "trigger_important", "Trigger: marked important"
    TRIGGER_SESSIONS = "trigger_sessions", "Trigger: used in 3+ sessions"
    TRIGGER_EMOTION = "trigger_emotion", "Trigger: strong emotion and repeated access"
    FALLBACK = "fallback", "Fallback rule (a component failed)"
    MANUAL = "manual", "Manual promotion request"


class PromotionState(models.Model):
    """A shortterm memory's promotion score: the four components and the composite
    (``breakdown``), the history of composite scores, what decided the last check, and
    what was promoted (the source fingerprint of the last promotion, so promoting an
    unchanged memory again writes nothing)."""

    MAX_HISTORY = 50

    memory = models.OneToOneField(
        "tiers.ShorttermMemory",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="promotion",
    )
    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="+", db_index=False)
    score = models.FloatField(null=True, blank=True)
    breakdown = models.JSONField(default=dict, blank=True)
    history = models.JSONField(default=list, blank=True)
    decided_by = models.CharField(max_length=24, choices=PromotionDecider.choices, blank=True)
    reason = models.TextField(blank=True, default="")
    error = models.TextField(blank=True, default="", help_text="a component's failure")
    checked_at = models.DateTimeField(null=True, blank=True)
    promoted_at = models.DateTimeField(null=True, blank=True)
    promoted_fingerprint = models.CharField(max_length=64, blank=True, default="")
    promotions = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["worker", "promoted_at"], name="promotion_worker_idx"),
        ]

    def __str__(self) -> str:
        return f"promotion of {self.memory_id}: {self.score}"
