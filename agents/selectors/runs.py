"""Reads of the memory agents' runs."""

from django.db.models import QuerySet

from agents.models import AgentRun
from memoryhub.errors import DomainError, NotFoundError
from memoryhub.models import Worker


def agent_run_list(*, worker: Worker, agent: str | None = None) -> QuerySet[AgentRun]:
    """A worker's agent runs (of one agent: updater, memorizer, retriever), newest first."""
    queryset = AgentRun.objects.filter(worker=worker)
    if agent:
        if agent not in AgentRun.Agent.values:
            raise DomainError(
                f"agent must be one of {', '.join(AgentRun.Agent.values)}",
                fields={"agent": "unknown"},
            )
        queryset = queryset.filter(agent=agent)
    return queryset.order_by("-started_at", "-id")


def agent_run_get(*, worker: Worker, run_id) -> AgentRun:
    try:
        return AgentRun.objects.get(worker=worker, pk=int(run_id))
    except (AgentRun.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError(f"agent run {run_id} not found") from exc
