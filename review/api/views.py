from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from memoryhub.api.mixins import WorkerScopedMixin
from review.api.serializers import ConflictSerializer, ResolveSerializer
from review.models import MergeConflict
from review.selectors.conflicts import conflict_get, conflict_list
from review.services.conflicts import conflict_resolve


class ConflictListView(WorkerScopedMixin, ListAPIView):
    """A worker's merge conflicts, newest first; ``?status=pending`` for the open ones."""

    serializer_class = ConflictSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return MergeConflict.objects.none()
        return conflict_list(
            worker=self.get_worker(), status=self.request.query_params.get("status")
        )

    @extend_schema(parameters=[OpenApiParameter("status", str, enum=MergeConflict.Status.values)])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class ConflictDetailView(WorkerScopedMixin, APIView):
    @extend_schema(responses=ConflictSerializer)
    def get(self, request, worker_id, conflict_id):
        return Response(
            ConflictSerializer(conflict_get(worker=self.get_worker(), conflict_id=conflict_id)).data
        )


class ConflictResolveView(WorkerScopedMixin, APIView):
    """Resolve a pending conflict: accept_incoming, keep_existing, merge_edited (with
    ``edited_text``), separate_memory or dismiss. A second resolution is a 409."""

    @extend_schema(request=ResolveSerializer, responses=ConflictSerializer)
    def post(self, request, worker_id, conflict_id):
        conflict = conflict_get(worker=self.get_worker(), conflict_id=conflict_id)
        payload = ResolveSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        user = request.user if getattr(request.user, "pk", None) else None
        conflict_resolve(
            conflict=conflict,
            decision=data["decision"],
            user=user,
            token=request.auth,
            edited_text=data.get("edited_text"),
            note=data["note"],
        )
        return Response(
            ConflictSerializer(conflict_get(worker=conflict.worker, conflict_id=conflict.pk)).data
        )
