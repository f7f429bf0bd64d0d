from django.contrib import admin, messages
from django.utils.html import format_html

from memoryhub.models import ApiToken, AuditEvent, IdempotencyRecord, Worker
from memoryhub.services.workers import token_issue, token_revoke, worker_delete


class ApiTokenInline(admin.TabularInline):
    model = ApiToken
    fields = ["name", "prefix", "created_at", "last_used_at", "revoked_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False  # tokens are issued with the "Issue API token" action: the key is shown once


@admin.register(Worker)
class WorkerAdmin(admin.ModelAdmin):
    list_display = ["name", "description", "active_memory_count", "live_tokens", "created_at"]
    search_fields = ["name", "description"]
    readonly_fields = ["created_at", "updated_at"]
    inlines = [ApiTokenInline]
    actions = ["issue_token"]

    def delete_model(self, request, obj):
        worker_delete(worker=obj)  # through the service: a large worker's upkeep is queued

    def delete_queryset(self, request, queryset):
        for worker in queryset:
            worker_delete(worker=worker)

    @admin.display(description="Active memories")
    def active_memory_count(self, obj):
        return obj.active_memories.count()

    @admin.display(description="Live tokens")
    def live_tokens(self, obj):
        return obj.tokens.filter(revoked_at__isnull=True).count()

    @admin.action(description="Issue API token (shown once)")
    def issue_token(self, request, queryset):
        for worker in queryset:
            _, key = token_issue(
                worker=worker, name=f"issued in admin by {request.user.get_username()}"
            )
            self.message_user(
                request,
                format_html(
                    "Token for <strong>{}</strong>: <code>{}</code> — "
                    "copy it now, it is not shown again.",
                    worker.name,
                    key,
                ),
                messages.SUCCESS,
            )


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["prefix", "name", "worker", "user", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["worker", ("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "prefix", "worker__name", "user__username"]
    readonly_fields = ["prefix", "worker", "user", "created_at", "last_used_at", "revoked_at"]
    fields = ["name", *readonly_fields]
    actions = ["revoke"]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Revoke selected tokens")
    def revoke(self, request, queryset):
        for token in queryset:
            token_revoke(token=token)
        self.message_user(request, f"Revoked {queryset.count()} token(s).", messages.SUCCESS)


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["key", "method", "path", "status_code", "created_at"]
    search_fields = ["key", "path"]
    readonly_fields = [f.name for f in IdempotencyRecord._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """The audit log, read-only: nobody edits history."""

    list_display = ("at", "actor", "action", "target", "worker")
    list_filter = ("action",)
    search_fields = ("actor", "target", "action")
    date_hierarchy = "at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
