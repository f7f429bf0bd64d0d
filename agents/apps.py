from django.apps import AppConfig


class AgentsConfig(AppConfig):
    """The agents' way in: the tool registry every surface shares (REST, the OpenAI tool
    manifest, the MCP server, the in-process memory agents)."""

    name = "agents"
    verbose_name = "Agents: tools, MCP server and memory agents"
    api_urls = "agents.api.root_urls"  # GET /api/v1/tools
    worker_api_urls = "agents.api.urls"
    portable = [{"model": "agents.agentrun"}]  # a worker's export (memoryhub.services.portability)
