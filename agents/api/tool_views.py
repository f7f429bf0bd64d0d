"""The tool registry over REST: the OpenAI function-calling manifest, and one tool
invoked for a worker (the same ``call_tool`` the MCP server and the memory agents use)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from agents.tools import call_tool, openai_tools, tool_get
from memoryhub.api.idempotency import IDEMPOTENCY_HEADER, idempotent
from memoryhub.api.mixins import WorkerScopedMixin


class ToolFunctionSerializer(serializers.Serializer):
    name = serializers.CharField()
    description = serializers.CharField()
    parameters = serializers.DictField(help_text="JSON Schema of the arguments")


class ToolManifestEntrySerializer(serializers.Serializer):
    type = serializers.CharField(help_text='"function"')
    function = ToolFunctionSerializer()


class ToolResultSerializer(serializers.Serializer):
    tool = serializers.CharField()
    result = serializers.JSONField(help_text="what the tool returned")


class ToolListView(APIView):
    """Every tool as an OpenAI function-calling definition (``tools=`` of a chat
    completion), its parameters a JSON Schema generated from its arguments' serializer."""

    @extend_schema(responses=ToolManifestEntrySerializer(many=True))
    def get(self, request):
        return Response(openai_tools())


class ToolInvokeView(WorkerScopedMixin, APIView):
    """Call one tool for a worker with a JSON object of arguments. ``Idempotency-Key`` is
    honoured for tools that write."""

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses=ToolResultSerializer,
        parameters=[
            OpenApiParameter("name", str, OpenApiParameter.PATH, description="the tool's name"),
            IDEMPOTENCY_HEADER,
        ],
    )
    def post(self, request, worker_id, name):
        worker = self.get_worker()
        if tool_get(name).writes:
            return self._call_once(request, worker_id, name, worker=worker)
        return self._call(request, worker_id, name, worker=worker)

    def _call(self, request, worker_id, name, *, worker):
        result = call_tool(worker=worker, name=name, arguments=request.data)
        return Response({"tool": name, "result": result})

    _call_once = idempotent(_call)
