"""The human review queue: merge conflicts found while consolidating active memory into
the shortterm tier, and how each was resolved."""

from django.conf import settings
from django.db import models

from consolidation.models import Decision
from memoryhub.models import ApiToken, Worker
from tiers.models import ActiveMemory, ShorttermMemory


class MergeConflict(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        RESOLVED = "resolved"
        DISMISSED = "dismissed"

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="conflicts")
    active_memory = models.ForeignKey(
        ActiveMemory, null=True, blank=True, on_delete=models.SET_NULL, related_name="conflicts"
    )
    section_id = models.CharField(max_length=100)
    section_name = models.CharField(max_length=200, blank=True, default="")
    section_content = models.TextField(help_text="the incoming content")
    shortterm_memory = models.ForeignKey(
        ShorttermMemory, null=True, blank=True, on_delete=models.SET_NULL, related_name="conflicts"
    )
    # [{chunk_id, content, similarity, entity_overlap, relationship_overlap}], best first
    conflicting_chunks = models.JSONField(default=list)
    entity_differences = models.JSONField(default=dict, blank=True)
    relationship_differences = models.JSONField(default=dict, blank=True)
    # [{code, detail, spans}] — machine-readable reasons
    reasons = models.JSONField(default=list)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        permissions = [("resolve_conflict", "Can resolve merge conflicts")]
        indexes = [
            models.Index(fields=["worker", "status", "-created_at"], name="conflict_queue_idx")
        ]

    def __str__(self) -> str:
        return f"conflict {self.pk} on {self.section_name or self.section_id} ({self.status})"


class ConflictResolution(models.Model):
    Decision = Decision  # what each one does to memory: consolidation.services.decisions

    conflict = models.OneToOneField(
        MergeConflict, on_delete=models.CASCADE, related_name="resolution"
    )
    decision = models.CharField(max_length=32, choices=Decision.choices)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    resolved_by_token = models.ForeignKey(
        ApiToken, null=True, blank=True, on_delete=models.SET_NULL
    )
    resolved_at = models.DateTimeField(auto_now_add=True)
    note = models.TextField(blank=True, default="")
    before = models.JSONField(default=dict, help_text="what the shortterm tier held before")
    after = models.JSONField(default=dict, help_text="what it holds after")

    class Meta:
        indexes = [models.Index(fields=["-resolved_at"], name="resolution_log_idx")]

    def __str__(self) -> str:
        return f"{self.decision} on conflict {self.conflict_id}"


class UndoneResolution(models.Model):
    """A decision that was undone (``review.services.conflicts.conflict_undo``): the
    ``ConflictResolution`` as it stood, moved here when its conflict went back to pending,
    with who undid it and when.

    Why a table of its own rather than an ``undone_at`` on ``ConflictResolution``: a
    conflict's ``resolution`` is *the decision in force* (one per conflict, what the API,
    the queue and the "already resolved by X" check read, absent while the conflict is
    pending). Moving the undone decision out keeps that true and lets the conflict be
    decided again; the decision log reads both tables."""

    resolution_id = models.PositiveBigIntegerField(
        unique=True, help_text="the id it had as a ConflictResolution (the decision log's id)"
    )
    conflict = models.ForeignKey(
        MergeConflict, on_delete=models.CASCADE, related_name="undone_resolutions"
    )
    decision = models.CharField(max_length=32, choices=Decision.choices)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    resolved_by_token = models.ForeignKey(
        ApiToken, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField()
    note = models.TextField(blank=True, default="")
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    undone_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-resolved_at", "-resolution_id"]
        indexes = [models.Index(fields=["-resolved_at"], name="undone_resolution_log_idx")]

    def __str__(self) -> str:
        return f"{self.decision} on conflict {self.conflict_id} (undone)"
