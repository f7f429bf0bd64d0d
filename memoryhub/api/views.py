from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from memoryhub.api.idempotency import IDEMPOTENCY_HEADER, idempotent
from memoryhub.api.permissions import IsStaffToken
from memoryhub.api.serializers import (
    AuditEventSerializer,
    HealthSerializer,
    IssuedTokenSerializer,
    MeSerializer,
    TokenIssueSerializer,
    WorkerInputSerializer,
    WorkerSerializer,
    WorkerUpdateSerializer,
)
from memoryhub.models import AuditEvent, Worker
from memoryhub.selectors.health import system_health
from memoryhub.selectors.workers import worker_get_for, worker_list_for
from memoryhub.services.audit import audit_record
from memoryhub.services.workers import token_issue, worker_create, worker_delete, worker_update


class ApiRootView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(exclude=True)
    def get(self, request):
        return Response(
            {
                "name": "MemoryHub API",
                "version": "v1",
                "authentication": "Authorization: Token <key>",
                "schema": request.build_absolute_uri(reverse("schema")),
                "docs": request.build_absolute_uri(reverse("swagger-ui")),
                "endpoints": {
                    "health": request.build_absolute_uri(reverse("api:health")),
                    "me": request.build_absolute_uri(reverse("api:me")),
                    "workers": request.build_absolute_uri(reverse("api:worker-list")),
                },
            }
        )


class HealthView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []

    @extend_schema(responses=HealthSerializer, auth=[])
    def get(self, request):
        report = system_health()
        code = (
            status.HTTP_503_SERVICE_UNAVAILABLE
            if report["status"] == "down"
            else status.HTTP_200_OK
        )
        return Response(report, status=code)


class MeView(APIView):
    """Who the token belongs to: a worker (agent) or a staff user."""

    @extend_schema(responses=MeSerializer)
    def get(self, request):
        token = request.auth
        data = {
            "kind": "staff" if token.is_staff_token else "worker",
            "token": {"id": token.pk, "name": token.name, "prefix": token.prefix},
            "worker": WorkerSerializer(token.worker).data if token.worker_id else None,
            "user": token.user.get_username() if token.user_id else None,
        }
        return Response(data)


class WorkerListView(ListAPIView):
    """Workers this token reaches (all for staff, its own for an agent); staff create."""

    serializer_class = WorkerSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Worker.objects.none()
        return worker_list_for(token=self.request.auth)

    def get_permissions(self):
        if self.request.method == "POST":
            return [IsStaffToken()]
        return super().get_permissions()

    @extend_schema(
        request=WorkerInputSerializer,
        responses={201: WorkerSerializer},
        parameters=[IDEMPOTENCY_HEADER],
    )
    @idempotent
    def post(self, request):
        payload = WorkerInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        worker = worker_create(**payload.validated_data)
        audit_record(
            action="worker.create", target=f"worker:{worker.pk}", token=request.auth, worker=worker
        )
        return Response(WorkerSerializer(worker).data, status=status.HTTP_201_CREATED)


def _require_staff(request, view) -> None:
    """After the worker is looked up (another worker's id is a 404 first, never a 403
    that would tell it exists): only staff go on."""
    permission = IsStaffToken()
    if not permission.has_permission(request, view):
        raise PermissionDenied(permission.message)


class WorkerDetailView(APIView):
    @extend_schema(responses=WorkerSerializer)
    def get(self, request, worker_id):
        worker = worker_get_for(token=request.auth, worker_id=worker_id)
        return Response(WorkerSerializer(worker).data)

    @extend_schema(request=WorkerUpdateSerializer, responses=WorkerSerializer)
    def patch(self, request, worker_id):
        worker = worker_get_for(token=request.auth, worker_id=worker_id)
        payload = WorkerUpdateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        worker = worker_update(worker=worker, **payload.validated_data)
        audit_record(
            action="worker.update",
            target=f"worker:{worker.pk}",
            token=request.auth,
            worker=worker,
            detail={"fields": sorted(payload.validated_data)},
        )
        return Response(WorkerSerializer(worker).data)

    @extend_schema(responses={204: None})
    def delete(self, request, worker_id):
        worker = worker_get_for(token=request.auth, worker_id=worker_id)
        _require_staff(request, self)
        audit_record(
            action="worker.delete",
            target=f"worker:{worker.pk}",
            token=request.auth,
            detail={"name": worker.name},
        )
        worker_delete(worker=worker)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WorkerTokenView(APIView):
    """Issue a new API token for a worker (staff only). The key is shown once."""

    @extend_schema(request=TokenIssueSerializer, responses={201: IssuedTokenSerializer})
    def post(self, request, worker_id):
        worker = worker_get_for(token=request.auth, worker_id=worker_id)
        _require_staff(request, self)
        payload = TokenIssueSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        token, key = token_issue(worker=worker, name=payload.validated_data["name"])
        audit_record(
            action="token.issue",
            target=f"token:{token.prefix}",
            token=request.auth,
            worker=worker,
        )
        token.key = key
        return Response(IssuedTokenSerializer(token).data, status=status.HTTP_201_CREATED)


class AuditLogView(ListAPIView):
    """The audit log (staff): reviewers' decisions, admin changes, workers and tokens,
    manual promotions, imports — newest first; ``?action=`` and ``?worker=`` filter."""

    permission_classes = [IsStaffToken]
    serializer_class = AuditEventSerializer

    def get_queryset(self):
        queryset = AuditEvent.objects.all()
        action = self.request.query_params.get("action")
        if action:
            queryset = queryset.filter(action=action)
        worker = self.request.query_params.get("worker")
        if worker:
            queryset = queryset.filter(worker_id=worker if worker.isdigit() else -1)
        return queryset.order_by("-at", "-id")
