"""The entity graph, stored in PostgreSQL next to the chunks it comes from (DESIGN.md §3).

Shortterm entities and relationships belong to one shortterm memory (its extraction);
longterm ones are consolidated per worker with temporal validity. Neo4j, when configured,
holds a projection fed from ``GraphOutbox``.
"""

from django.db import models
from django.db.models import F, Q

from graph.vocabulary import ENTITY_TYPES
from memoryhub.models import Worker
from tiers.models import ShorttermMemory, Tier

EntityType = models.TextChoices("EntityType", [(t.upper(), t) for t in ENTITY_TYPES])


class Entity(models.Model):
    tier = models.CharField(max_length=16, choices=Tier.choices)
    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="entities")
    source_memory = models.ForeignKey(
        ShorttermMemory, null=True, blank=True, on_delete=models.CASCADE, related_name="entities"
    )
    name = models.CharField(max_length=300)
    normalized_name = models.CharField(max_length=300)
    type = models.CharField(max_length=32, choices=EntityType.choices)
    description = models.TextField(blank=True, default="")
    confidence = models.FloatField(default=0.5)
    importance = models.FloatField(null=True, blank=True, help_text="longterm only")
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField()
    # Changed or created by an agent (graph edit API): re-extraction keeps it as it is.
    edited = models.BooleanField(default=False)
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name_plural = "entities"
        ordering = ["normalized_name", "type"]
        constraints = [
            models.UniqueConstraint(
                fields=["source_memory", "normalized_name", "type"],
                condition=Q(tier=Tier.SHORTTERM),
                name="entity_shortterm_unique",
            ),
            models.UniqueConstraint(
                fields=["worker", "tier", "normalized_name", "type"],
                condition=Q(tier=Tier.LONGTERM),
                name="entity_longterm_unique",
            ),
            models.CheckConstraint(
                condition=Q(tier=Tier.LONGTERM) | Q(source_memory__isnull=False),
                name="entity_shortterm_has_memory",
            ),
            models.CheckConstraint(
                condition=Q(confidence__gte=0, confidence__lte=1), name="entity_confidence_range"
            ),
        ]
        indexes = [
            models.Index(
                fields=["worker", "tier", "normalized_name"],
                name="entity_name_idx",
                opclasses=["", "", "varchar_pattern_ops"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.type})"


class Relationship(models.Model):
    tier = models.CharField(max_length=16, choices=Tier.choices)
    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="relationships")
    source_memory = models.ForeignKey(
        ShorttermMemory,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="relationships",
    )
    from_entity = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="outgoing")
    to_entity = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="incoming")
    type = models.CharField(max_length=64)
    description = models.TextField(blank=True, default="")
    confidence = models.FloatField(default=0.5)
    strength = models.FloatField(default=0.5)
    first_observed = models.DateTimeField(null=True, blank=True, help_text="shortterm")
    last_observed = models.DateTimeField(null=True, blank=True, help_text="shortterm")
    start_date = models.DateTimeField(null=True, blank=True, help_text="longterm: valid from")
    last_updated = models.DateTimeField(null=True, blank=True, help_text="longterm")
    # Changed or created by an agent (graph edit API): re-extraction keeps it as it is.
    edited = models.BooleanField(default=False)
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["source_memory", "from_entity", "to_entity", "type"],
                condition=Q(tier=Tier.SHORTTERM),
                name="relationship_shortterm_unique",
            ),
            # The seed's temporal uniqueness of longterm relationships.
            models.UniqueConstraint(
                fields=["from_entity", "to_entity", "type", "start_date"],
                condition=Q(tier=Tier.LONGTERM),
                name="relationship_longterm_temporal_unique",
            ),
            models.CheckConstraint(
                condition=~Q(from_entity=F("to_entity")), name="relationship_no_self_loop"
            ),
            models.CheckConstraint(
                condition=Q(confidence__gte=0, confidence__lte=1, strength__gte=0, strength__lte=1),
                name="relationship_scores_range",
            ),
        ]
        indexes = [
            models.Index(fields=["worker", "tier", "from_entity"], name="relationship_from_idx"),
            models.Index(fields=["worker", "tier", "to_entity"], name="relationship_to_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.from_entity_id} -{self.type}-> {self.to_entity_id}"


class GraphOutbox(models.Model):
    """ "This entity/relationship changed" — written in the transaction of the change when
    Neo4j is configured, drained into the projection by a task that re-reads the current
    row (MERGE when it exists, DETACH DELETE when it is gone), so replays are harmless."""

    class Kind(models.TextChoices):
        ENTITY = "entity"
        RELATIONSHIP = "relationship"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    object_id = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["next_attempt_at", "id"], name="graph_outbox_due_idx")]


class GraphProjectionState(models.Model):
    """One row: how the Neo4j projection is doing (for /api/v1/health)."""

    last_drain_at = models.DateTimeField(null=True, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    projected_total = models.BigIntegerField(default=0)
