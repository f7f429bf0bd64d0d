from django.db import models

from memoryhub.models import Worker


class AgentRun(models.Model):
    """One run of an in-process memory agent (updater, memorizer, retriever): what it was
    asked, every tool call it made, and how it ended. A run's writes are kept only when it
    ends ``ok``; otherwise they are rolled back (``steps`` still shows what was tried)."""

    class Agent(models.TextChoices):
        UPDATER = "updater", "Memory update agent"
        MEMORIZER = "memorizer", "Memorizer"
        RETRIEVER = "retriever", "Memory retrieve agent"

    class Status(models.TextChoices):
        RUNNING = "running"
        OK = "ok"
        FAILED = "failed"
        MAX_STEPS = "max_steps"
        TIMEOUT = "timeout"

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="agent_runs")
    agent = models.CharField(max_length=16, choices=Agent.choices)
    input = models.JSONField(default=dict)  # the request: message / query and ids
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.RUNNING, db_index=True
    )
    answer = models.TextField(blank=True, default="")  # the final answer (or the last text)
    error = models.TextField(blank=True, default="")
    # [{round, tool, arguments, ok, result | error, ms}], one per tool call, in order
    steps = models.JSONField(default=list)
    llm_calls = models.PositiveSmallIntegerField(default=0)
    # agent-specific outcome: the retriever's memories_used, the memorizer's fallback run
    result = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    duration_ms = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [
            models.Index(fields=["worker", "-started_at"], name="agentrun_worker_started_idx")
        ]

    def __str__(self) -> str:
        return f"{self.agent} run {self.pk} ({self.status})"
