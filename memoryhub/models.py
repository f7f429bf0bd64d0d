import hashlib

from django.conf import settings
from django.db import models
from django.db.models import Q


class Worker(models.Model):
    """An agent (or fleet member) that owns memory in every tier."""

    name = models.CharField(max_length=200, unique=True)
    description = models.TextField(blank=True, default="")
    metadata = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ApiToken(models.Model):
    """A bearer token. It belongs either to one worker (an agent) or to a staff user.

    Only a SHA-256 digest of the key is stored; the key itself is shown once, when the
    token is issued.
    """

    KEY_PREFIX = "mh_"

    name = models.CharField(max_length=200, blank=True, default="")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(
        max_length=12, editable=False, help_text="First characters of the key"
    )
    worker = models.ForeignKey(
        Worker, null=True, blank=True, on_delete=models.CASCADE, related_name="tokens"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(worker__isnull=False, user__isnull=True)
                    | Q(worker__isnull=True, user__isnull=False)
                ),
                name="apitoken_worker_xor_user",
            )
        ]

    def __str__(self) -> str:
        owner = f"worker {self.worker}" if self.worker_id else f"staff {self.user}"
        return f"{self.prefix}… ({owner})"

    @staticmethod
    def digest_of(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    @property
    def is_staff_token(self) -> bool:
        return self.user_id is not None


class IdempotencyRecord(models.Model):
    """The stored answer to a creating POST sent with an ``Idempotency-Key`` header."""

    token = models.ForeignKey(ApiToken, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=2000)
    request_digest = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    response_body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["token", "key"], name="idempotency_token_key_unique")
        ]


class AuditEvent(models.Model):
    """Who changed what, outside the agents' own memory writes: reviewers' decisions and
    their undoing, admin changes (Django admin), workers and tokens created or removed
    through the API, manual promotions, imports. Written in the transaction of the change
    when the change has one."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.CharField(max_length=200, help_text="user:<name>, token:<prefix> or command")
    action = models.CharField(max_length=64, help_text="e.g. conflict.resolve, admin.change")
    target = models.CharField(max_length=300, help_text="<kind>:<id>")
    worker = models.ForeignKey(
        Worker, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["action", "-at"], name="audit_action_idx")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor} {self.action} {self.target}"
