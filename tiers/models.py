from django.db import models

from memoryhub.models import Worker


class ActiveMemory(models.Model):
    """Working memory of a worker: markdown sections defined by a YAML template.

    ``sections`` maps each section id of the template to
    ``{"content": markdown, "update_count": int}``; the count grows by one with every
    update and is what the migration to the shortterm tier looks at.
    """

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="active_memories")
    title = models.CharField(max_length=500)
    description = models.TextField(blank=True, default="")
    template_content = models.TextField(help_text="YAML template defining the sections")
    sections = models.JSONField(default=dict)
    metadata = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        verbose_name_plural = "active memories"
        indexes = [models.Index(fields=["worker", "-updated_at"], name="active_worker_updated_idx")]

    def __str__(self) -> str:
        return self.title

    @property
    def total_update_count(self) -> int:
        return sum(int(section.get("update_count", 0)) for section in self.sections.values())
