from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from agents.api.agent_serializers import (
    AgentRunSerializer,
    MemorizerRequestSerializer,
    RetrieverRequestSerializer,
    UpdaterRequestSerializer,
)
from agents.models import AgentRun
from agents.selectors.runs import agent_run_get, agent_run_list
from agents.services.memory_agents import memorizer_run, retriever_run, updater_run
from memoryhub.api.mixins import WorkerScopedMixin

NO_LLM = OpenApiResponse(
    description='{"error": "no_llm", "detail": "no LLM configured: set MEMORYHUB_LLM_URL …", '
    '"fields": {}}'
)
_RUN_DOC = (
    " Answers the recorded run: status ok | failed | max_steps | timeout, the answer, the "
    "error, and every tool call in steps. A run that does not end ok leaves memory unchanged. "
    "503 no_llm without MEMORYHUB_LLM_URL."
)


class _AgentView(WorkerScopedMixin, APIView):
    """Parse the agent's request, run it, answer the recorded run."""

    request_serializer: type
    run_agent = None

    def run(self, request):
        payload = self.request_serializer(data=request.data)
        payload.is_valid(raise_exception=True)
        run = self.run_agent(worker=self.get_worker(), **payload.validated_data)
        return Response(AgentRunSerializer(run).data)


class UpdaterView(_AgentView):
    __doc__ = (
        "Seed 003's Memory Update Agent: turns new information into a created or updated "
        "active memory (it fetches a memory before changing it, and must change one)." + _RUN_DOC
    )

    request_serializer = UpdaterRequestSerializer
    run_agent = staticmethod(updater_run)

    @extend_schema(
        request=UpdaterRequestSerializer,
        responses={200: AgentRunSerializer, 503: NO_LLM},
    )
    def post(self, request, worker_id):
        return self.run(request)


class MemorizerView(_AgentView):
    """Seed 003's Memorizer: consolidates an active memory into the shortterm tier
    (auto_resolve, chunk updates and additions, entity/relationship conflicts). Answers the
    recorded run; a run that does not end ok leaves memory unchanged. Without an LLM it
    runs the deterministic consolidation and says so (result.fallback, the consolidation
    run's id and outcomes)."""

    request_serializer = MemorizerRequestSerializer
    run_agent = staticmethod(memorizer_run)

    @extend_schema(request=MemorizerRequestSerializer, responses=AgentRunSerializer)
    def post(self, request, worker_id):
        return self.run(request)


class RetrieverView(_AgentView):
    __doc__ = (
        "Seed 003's Memory Retrieve Agent: picks the tiers for the query, searches them and "
        "answers, citing the memories it used (memories_used: tier, id, title)." + _RUN_DOC
    )

    request_serializer = RetrieverRequestSerializer
    run_agent = staticmethod(retriever_run)

    @extend_schema(
        request=RetrieverRequestSerializer,
        responses={200: AgentRunSerializer, 503: NO_LLM},
    )
    def post(self, request, worker_id):
        return self.run(request)


class AgentRunListView(WorkerScopedMixin, ListAPIView):
    """The worker's memory agent runs, newest first (``?agent=updater|memorizer|retriever``)."""

    serializer_class = AgentRunSerializer

    @extend_schema(
        parameters=[OpenApiParameter("agent", str, enum=AgentRun.Agent.values, required=False)]
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return AgentRun.objects.none()
        return agent_run_list(
            worker=self.get_worker(), agent=self.request.query_params.get("agent") or None
        )


class AgentRunDetailView(WorkerScopedMixin, RetrieveAPIView):
    """One agent run with its steps."""

    serializer_class = AgentRunSerializer

    def get_object(self):
        return agent_run_get(worker=self.get_worker(), run_id=self.kwargs["run_id"])
