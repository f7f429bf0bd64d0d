"""The shapes the API answers with, as TypedDicts: the client returns the decoded JSON
as it comes (no copying into objects), and a type checker or an editor knows its keys.

Date-times are ISO 8601 strings. Shapes the API leaves open (a graph, a conflict's
figures) are plain dicts.
"""

from typing import Any, Generic, Literal, NotRequired, TypedDict, TypeVar

Item = TypeVar("Item")

Tier = Literal["active", "shortterm", "longterm"]
SearchMode = Literal["hybrid", "vector", "bm25"]
EventKind = Literal["access", "confirm", "correct", "contradict", "mark_important", "user_mention"]
Decision = Literal["accept_incoming", "keep_existing", "merge_edited", "separate_memory", "dismiss"]


class Page(TypedDict, Generic[Item]):
    """One page of a list (``?page=``, ``?page_size=`` up to 500)."""

    count: int
    next: str | None
    previous: str | None
    results: list[Item]


class Worker(TypedDict):
    id: int
    name: str
    description: str
    metadata: dict[str, Any]
    created_at: str
    updated_at: str


class Me(TypedDict):
    kind: Literal["worker", "staff"]
    token: dict[str, Any]  # {id, name, prefix}
    worker: Worker | None
    user: str | None


class Section(TypedDict):
    content: str
    update_count: int


class ActiveMemory(TypedDict):
    id: int
    worker: int
    title: str
    description: str
    template: dict[str, str]  # {id, name, version}
    template_content: str
    sections: dict[str, Section]  # by section id
    metadata: dict[str, Any]
    created_at: str
    updated_at: str


class SectionSummary(TypedDict):
    id: str
    name: str
    update_count: int
    chars: int


class ActiveMemorySummary(TypedDict):
    id: int
    title: str
    description: str
    sections: list[SectionSummary]
    total_update_count: int
    metadata: dict[str, Any]
    updated_at: str


class Chunk(TypedDict):
    id: int
    chunk_order: int
    content: str
    metadata: dict[str, Any]
    created_at: str
    updated_at: str


class ChunkInput(TypedDict, total=False):
    content: str  # required
    metadata: dict[str, Any]
    context: str


class ChunkUpdate(TypedDict):
    chunk_id: int
    new_content: str


class Graph(TypedDict):
    entities: list[dict[str, Any]]
    relationships: list[dict[str, Any]]


class ShorttermMemory(TypedDict):
    id: int
    worker: int
    title: str
    summary: str
    metadata: dict[str, Any]
    created_at: str
    last_updated: str
    extraction_status: str
    chunks: list[Chunk]
    graph: Graph


class ShorttermSummary(TypedDict):
    id: int
    title: str
    summary: str
    metadata: dict[str, Any]
    chunk_count: int
    created_at: str
    last_updated: str


class SearchHit(TypedDict):
    """A shortterm or longterm search hit with its component scores."""

    chunk_id: int
    memory_id: int  # longterm: the source shortterm memory
    memory_title: str
    chunk_order: int
    content: str
    metadata: dict[str, Any]
    similarity: float | None
    bm25_score: float
    fused_score: float | None
    vector_rank: int | None
    bm25_rank: int | None
    rank: int
    graph: NotRequired[Graph]  # with include_graph
    start_date: NotRequired[str]  # longterm hits
    end_date: NotRequired[str | None]
    confidence: NotRequired[float]


class SearchQuery(TypedDict):
    shortterm_memory_id: int
    search_content: str


class SearchResults(TypedDict):
    mode: SearchMode
    results: list[SearchHit]


class ActiveHit(TypedDict):
    active_memory_id: int
    title: str
    section_id: str
    section_name: str
    content: str
    update_count: int
    score: float
    rank: int
    updated_at: str


class RetrievalResults(TypedDict):
    active: list[ActiveHit]
    shortterm: list[SearchHit]
    longterm: list[SearchHit]


class Retrieval(TypedDict):
    query: str
    tiers: list[Tier]  # searched, in order
    reason: str  # why these tiers
    results: RetrievalResults


class ContextItem(TypedDict):
    section: Literal["recent", "past"]
    relevance: float
    tokens: int
    tier: Tier
    memory_id: int
    chunk_id: NotRequired[int]


class Context(TypedDict):
    query: str
    markdown: str  # ready for a prompt
    tokens: int
    token_budget: int | None
    items: list[ContextItem]
    dropped: list[ContextItem]  # left out to stay within the budget


class LongtermChunk(TypedDict):
    id: int
    shortterm_memory_id: int | None
    chunk_order: int
    title: str
    content: str
    confidence: float
    importance: float
    memory_type: str
    start_date: str
    end_date: str | None
    is_current: bool
    metadata: dict[str, Any]
    created_at: str


class UsageEvent(TypedDict):
    id: int
    memory: int
    chunk_id: int | None
    kind: EventKind
    session_id: str
    actor: str
    detail: Any
    created_at: str


class Usage(TypedDict):
    usage: dict[str, Any] | None  # counts, sessions, importance …; None before any signal
    events: list[UsageEvent]


class PromotionState(TypedDict):
    memory: int
    score: float
    threshold: float
    breakdown: dict[str, Any]
    history: list[dict[str, Any]]
    decided_by: str
    reason: str
    error: str
    checked_at: str
    promoted_at: str | None
    promotions: int


class PromotionOutcome(TypedDict):
    memory_id: int
    promoted: bool
    decided_by: str
    reason: str
    score: float | None
    versions_created: list[int]
    versions_closed: list[int]
    graph: dict[str, Any]
    unchanged: bool
    error: str


class Conflict(TypedDict):
    id: int
    worker: int
    active_memory: int | None
    section_id: str
    section_name: str
    section_content: str
    shortterm_memory: int | None
    conflicting_chunks: list[dict[str, Any]]
    entity_differences: dict[str, Any]
    relationship_differences: dict[str, Any]
    reasons: list[Any]
    status: str
    created_at: str
    resolved_at: str | None
    resolution: dict[str, Any] | None
    undone_resolutions: list[dict[str, Any]]


class TaskQueued(TypedDict):
    task_id: str


class ToolFunction(TypedDict):
    name: str
    description: str
    parameters: dict[str, Any]  # JSON Schema of the arguments


class Tool(TypedDict):
    type: Literal["function"]
    function: ToolFunction


class ToolResult(TypedDict):
    tool: str
    result: Any


class AgentRun(TypedDict):
    id: int
    agent: Literal["updater", "memorizer", "retriever"]
    status: str  # ok | failed | max_steps | timeout
    input: dict[str, Any]
    answer: str
    error: str
    memories_used: list[dict[str, Any]] | None  # retriever: {tier, id, title}
    steps: list[dict[str, Any]]  # every tool call
    llm_calls: int
    result: dict[str, Any]
    started_at: str
    finished_at: str | None
    duration_ms: int | None
