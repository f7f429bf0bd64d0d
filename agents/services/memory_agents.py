"""Seed 003's three memory agents, run in-process by the agent loop (``loop.agent_run``):

- the **updater** (Memory Update Agent) keeps the active tier current: it reads the
  worker's active memory summaries, fetches a memory before changing it, and MUST create
  or update one (an answer without a memory operation earns one reminder, then fails);
- the **memorizer** consolidates an active memory into the shortterm tier: auto_resolve,
  then chunk updates/additions from ``active_content`` only, then the entity/relationship
  conflicts from the differences only. Without an LLM it runs the deterministic
  consolidation (``migrate_active_memory``) and says so;
- the **retriever** (Memory Retrieve Agent) picks the tiers by seed 003's rules, searches
  them and answers citing the memories it used (``memories_used``: tier, id, title).

Without an LLM the updater and the retriever raise ``NoLLMError`` (503).
"""

import re

from agents.models import AgentRun
from agents.services.loop import AgentSpec, LoopState, NoLLMError, agent_run
from consolidation.models import ConsolidationRun
from consolidation.services.active_to_shortterm import migrate_active_memory
from memoryhub.errors import DomainError
from memoryhub.models import Worker
from memoryhub.providers.llm import llm_configured
from tiers.models import ActiveMemory
from tiers.retrieval import choose_tiers
from tiers.search import nearest_chunks
from tiers.selectors.active import (
    active_memory_get,
    active_memory_list,
    active_memory_sections_view,
)
from tiers.selectors.shortterm import shortterm_memory_get, shortterm_memory_list

SUMMARY_LIMIT = 30  # memories listed in a prompt, most recently updated first
CANDIDATE_LIMIT = 5  # shortterm memories offered to the memorizer

UPDATER_PROMPT = """\
You are the Memory Update Agent (Memory Consolidation Specialist) of a worker agent. You \
maintain the integrity and relevance of the worker's ACTIVE memory tier (its working \
memory) by processing new information the worker gives you.

Workflow:
1. REVIEW INPUTS: the worker's instruction and the summaries of its active memories.
2. ASSESS MEMORY RELEVANCE: identify the new information and the memories it relates to; \
fetch their current content with get_detailed_active_memories.
3. DECIDE ACTION: update an existing memory when the information extends or changes it; \
create a new memory when it relates to no existing one.
4. PERFORM MEMORY OPERATION: call update_active_memory or create_active_memory.
5. CONFIRM AND DOCUMENT: answer with one or two sentences saying what was updated or \
created (memory id and title).

Rules:
- You MUST ALWAYS call a tool. Never only describe what you would do: "I would update the \
memory ..." is wrong; calling update_active_memory and then confirming is right.
- Before updating a memory, ALWAYS fetch it with get_detailed_active_memories: content \
replaces the section's text, so send the complete merged text (what was there, changed \
by the new information), never only the new sentence.
- When creating a memory give a clear title, a one-line description and complete, \
self-contained content. Useful categories: session context (task, objective, priority, \
deadline, progress, next steps); communication (messages with other workers, pending \
questions, external references); operational state (tools used and their outcomes, \
environment, constraints, recent errors and their resolutions); decision history (the \
last critical decisions, their reasons and outcomes).
- A tool answering with an error tells you what to fix: fix the arguments and call it \
again.
"""

MEMORIZER_PROMPT = """\
You are the Memorizer (Memory Consolidation Agent). You consolidate one ACTIVE memory \
(working memory) into the SHORTTERM tier (searchable chunks with an entity graph) and \
resolve the conflicts this raises.

Workflow:
1. ANALYSIS: choose the best shortterm memory for the active memory among the candidates \
given (the most similar and relevant). If none fits, create one with \
create_shortterm_memory: a title, a summary, and the active memory's content (given \
below the candidates) as its content; it is chunked and its graph extracted for you, so \
the consolidation is then done: confirm it.
2. AUTO-RESOLVE: call auto_resolve with the active memory id and the chosen shortterm \
memory id. It returns active_content, similar_chunks, entity_differences and \
relationship_differences.
3. CHUNK OPERATIONS: merge active_content into the similar_chunks with \
update_shortterm_memory_chunks (each new_content is the chunk's complete merged text), \
and add what no existing chunk covers with add_new_shortterm_memory_chunks. Each new \
chunk must stand on its own: give it a context line such as \
"[Context: Authentication system - token management]".
4. ENTITY/RELATIONSHIP OPERATIONS: resolve the conflicts in entity_differences and \
relationship_differences with update_shortterm_memory_entities_relationships, if any.
Then answer with a short confirmation: the shortterm memory id and what changed.

DATA SOURCE SEPARATION (the most important rule):
- active_content: for chunk operations ONLY.
- entity_differences: for entity conflict resolution ONLY.
- relationship_differences: for relationship conflict resolution ONLY.
auto_resolve has ALREADY extracted all entities and relationships from the active memory \
and ALREADY created them in the shortterm memory's graph. Do NOT extract entities or \
relationships from active_content, do NOT analyse active_content for them, and do NOT \
create new ones: only resolve the reported conflicts.
"""

RETRIEVER_PROMPT = """\
You are the Memory Retrieve Agent (Memory Retrieval Specialist). You help a worker agent \
by finding the most relevant information in its three memory tiers — active (current \
working memory), shortterm (recent work: hours to days) and longterm (consolidated, \
foundational knowledge) — and synthesising a clear answer.

Workflow:
1. DECONSTRUCT REQUEST: understand the intent, the information needed, any time frame.
2. IDENTIFY RELEVANT MEMORIES: review the active and shortterm summaries given and pick \
the relevant ids.
3. STRATEGIZE AND EXECUTE: search only the tiers that can hold the answer.
4. AGGREGATE RESULTS and 5. SYNTHESIZE AND RESPOND.

Which tiers:
- Active (get_detailed_active_memories) when the query is about the current session or \
task ("current", "recent", "now", "what am I working on", "status") or an active summary \
matches it.
- Shortterm (search_shortterm_memory, with search_queries naming the relevant memories) \
when the query is about recent work ("how did I implement X?", "what errors did I \
encounter?"), a shortterm summary matches, or it needs detailed chunks, entities or \
relationships.
- Longterm (search_longterm_memory) when the query asks for foundational or historical \
knowledge ("general", "always", "historically", patterns, best practices, principles) or \
no active or shortterm summary is relevant.
- retrieve searches several tiers in one call (give tiers, or omit them to let the query \
choose); use it when unsure.
- Do NOT search when the query is about the very message being written now, when no \
summaries are given and the query is session-level, or when a previous identical search \
returned nothing. Lower similarity_threshold (about 0.5) for vague queries.

Answer:
- Synthesise the key findings; do not paste raw results. Say plainly when nothing relevant \
was found.
- Cite every memory you used as [tier:id], e.g. [active:3], [shortterm:10], [longterm:7], \
using the ids the tools returned (a shortterm or longterm hit's memory_id), and end with a \
line "Memories used:" listing them.
"""


def _ids_read(state: LoopState) -> set[int]:
    """Active memories this run fetched (or created): it may replace their content."""
    ids = set()
    for tool, result in state.results:
        if tool == "get_detailed_active_memories" and isinstance(result, list):
            ids |= {item.get("id") for item in result if isinstance(item, dict)}
        elif tool in ("create_active_memory", "update_active_memory") and isinstance(result, dict):
            ids.add(result.get("id"))
    return ids


def _fetch_before_update(name: str, arguments: dict, state: LoopState) -> DomainError | None:
    """Seed 003: fetch a memory's current content before updating it."""
    if name != "update_active_memory" or not {"content", "sections"} & set(arguments):
        return None
    memory_id = arguments.get("memory_id")
    if memory_id in _ids_read(state):
        return None
    return DomainError(
        f"fetch active memory {memory_id} with get_detailed_active_memories before "
        "updating it: content replaces the section's text, so send the complete merged text",
        fields={"memory_id": "not fetched in this run"},
        code="fetch_first",
    )


UPDATER = AgentSpec(
    name=AgentRun.Agent.UPDATER,
    system_prompt=UPDATER_PROMPT,
    tools=("get_detailed_active_memories", "create_active_memory", "update_active_memory"),
    temperature=0.5,
    must_write=True,
    guard=_fetch_before_update,
    reminder=(
        "You answered without calling a tool, so no memory was changed. You MUST perform the "
        "memory operation now: call update_active_memory (after get_detailed_active_memories) "
        "or create_active_memory. Do not only describe it."
    ),
)
MEMORIZER = AgentSpec(
    name=AgentRun.Agent.MEMORIZER,
    system_prompt=MEMORIZER_PROMPT,
    tools=(
        "auto_resolve",
        "create_shortterm_memory",
        "update_shortterm_memory",
        "update_shortterm_memory_chunks",
        "add_new_shortterm_memory_chunks",
        "update_shortterm_memory_entities_relationships",
    ),
    temperature=0.6,
    must_write=True,
    reminder=(
        "You answered without consolidating anything. Call auto_resolve with the active "
        "memory and the chosen shortterm memory, then update or add chunks."
    ),
)
RETRIEVER = AgentSpec(
    name=AgentRun.Agent.RETRIEVER,
    system_prompt=RETRIEVER_PROMPT,
    tools=(
        "get_detailed_active_memories",
        "search_shortterm_memory",
        "search_longterm_memory",
        "retrieve",
    ),
    temperature=0.6,
)


# --- What the prompts show ---------------------------------------------------------------


def _active_summaries(worker: Worker) -> str:
    memories = list(
        active_memory_list(worker=worker).order_by("-updated_at", "-id")[:SUMMARY_LIMIT]
    )
    if not memories:
        return "No active memories available."
    blocks = []
    for memory in memories:
        sections = ", ".join(
            f"{row['name']} ({row['id']}, {len(row['content'])} chars)"
            for row in active_memory_sections_view(memory)
        )
        blocks.append(
            f"ID: {memory.pk}\nTitle: {memory.title}\n"
            f"Description: {memory.description or 'No description'}\nSections: {sections}"
        )
    return "\n\n".join(blocks)


def _shortterm_summaries(worker: Worker) -> str:
    memories = list(shortterm_memory_list(worker=worker)[:SUMMARY_LIMIT])
    if not memories:
        return "No shortterm memories available."
    return "\n\n".join(
        f"ID: {m.pk}\nTitle: {m.title}\nSummary: {m.summary or 'No summary'}\n"
        f"Chunks: {m.chunk_count}"
        for m in memories
    )


def _active_text(memory: ActiveMemory) -> str:
    return "\n\n".join(
        f"{row['name']}: {row['content']}"
        for row in active_memory_sections_view(memory)
        if row["content"].strip()
    )


def _candidates(worker: Worker, memory: ActiveMemory) -> str:
    """The shortterm memories whose chunks are most like the active memory's content."""
    text = _active_text(memory) or memory.title
    best: dict[int, float] = {}
    for chunk in nearest_chunks(text=text, worker_id=worker.pk, limit=CANDIDATE_LIMIT * 4):
        similarity = chunk["similarity"] or 0.0
        best[chunk["memory_id"]] = max(best.get(chunk["memory_id"], -1.0), similarity)
    ranked = sorted(best.items(), key=lambda item: -item[1])[:CANDIDATE_LIMIT]
    if not ranked:
        return "No shortterm memories yet: create one with create_shortterm_memory."
    titles = {m.pk: m for m in shortterm_memory_list(worker=worker).filter(pk__in=dict(ranked))}
    return "\n\n".join(
        f"ID: {pk}\nTitle: {titles[pk].title}\nSummary: {titles[pk].summary or 'No summary'}\n"
        f"Best chunk similarity: {similarity:.2f}"
        for pk, similarity in ranked
        if pk in titles
    )


# --- The updater ---------------------------------------------------------------------------


def updater_run(*, worker: Worker, message: str, active_memory_id: int | None = None) -> AgentRun:
    """The update agent on one instruction (new information from the worker)."""
    if not llm_configured():
        raise NoLLMError(UPDATER.name)
    focus = ""
    if active_memory_id is not None:
        memory = active_memory_get(worker=worker, memory_id=active_memory_id)
        focus = f"\nThe instruction is about active memory {memory.pk} ({memory.title!r}).\n"
    user = (
        f"{message.strip()}\n{focus}\n"
        f"Here are the summaries of existing active memories:\n{_active_summaries(worker)}"
    )
    return agent_run(
        worker=worker,
        spec=UPDATER,
        user_message=user,
        run_input={"message": message, "active_memory_id": active_memory_id},
        finish=lambda state: {"active_memory_ids": sorted(_written_active(state))},
    )


def _written_active(state: LoopState) -> set[int]:
    return {
        result["id"]
        for tool, result in state.results
        if tool in ("create_active_memory", "update_active_memory") and isinstance(result, dict)
    }


# --- The memorizer -------------------------------------------------------------------------


def _shortterm_touched(state: LoopState) -> list[int]:
    ids: list[int] = []
    for step in state.steps:
        if not step["ok"]:
            continue
        arguments = step["arguments"] if isinstance(step["arguments"], dict) else {}
        if "shortterm_memory_id" in arguments:
            ids.append(arguments["shortterm_memory_id"])
    for tool, result in state.results:
        if tool == "create_shortterm_memory" and isinstance(result, dict):
            ids.append(result.get("id"))
    return sorted({i for i in ids if isinstance(i, int)})


def _fallback_answer(run: ConsolidationRun, target_given: bool) -> str:
    counts: dict[str, int] = {}
    for outcome in run.outcomes:
        counts[outcome["outcome"]] = counts.get(outcome["outcome"], 0) + 1
    told = ", ".join(f"{n} {name}" for name, n in sorted(counts.items())) or "no sections"
    return (
        "No LLM is configured (MEMORYHUB_LLM_URL), so the memorizer ran the deterministic "
        f"consolidation instead: consolidation run {run.pk}, sections: {told} (a section is "
        "consolidated once it was updated often enough; merged into the most similar chunk, "
        "sent to review as a conflict, or stored as a new shortterm memory)."
        + (
            " It chooses the shortterm memory by similarity itself: shortterm_memory_id was "
            "not used."
            if target_given
            else ""
        )
    )


def memorizer_run(
    *,
    worker: Worker,
    active_memory_id: int,
    shortterm_memory_id: int | None = None,
    message: str = "",
) -> AgentRun:
    """Consolidate one active memory into the shortterm tier (into ``shortterm_memory_id``
    when given). Without an LLM: the deterministic consolidation, recorded as the run."""
    memory = active_memory_get(worker=worker, memory_id=active_memory_id)
    target = (
        shortterm_memory_get(worker=worker, memory_id=shortterm_memory_id)
        if shortterm_memory_id is not None
        else None
    )
    run_input = {
        "active_memory_id": memory.pk,
        "shortterm_memory_id": shortterm_memory_id,
        "message": message,
    }
    if not llm_configured():
        return _memorizer_fallback(worker=worker, memory=memory, run_input=run_input)
    if target is not None:
        choice = (
            f"Consolidate it into shortterm memory {target.pk} ({target.title!r}), chosen by "
            "the caller."
        )
    else:
        choice = (
            f"Candidate shortterm memories (most similar first):\n{_candidates(worker, memory)}"
            "\n\nThe active memory's content (only for create_shortterm_memory, when no "
            f"candidate fits):\n{_active_text(memory)}"
        )
    user = (
        f"Consolidate active memory {memory.pk} ({memory.title!r}: "
        f"{memory.description or 'no description'}) into the shortterm tier.\n\n{choice}\n"
        + (f"\nInstruction from the worker: {message.strip()}\n" if message.strip() else "")
    )
    return agent_run(
        worker=worker,
        spec=MEMORIZER,
        user_message=user,
        run_input=run_input,
        finish=lambda state: {
            "active_memory_id": memory.pk,
            "shortterm_memory_ids": _shortterm_touched(state),
        },
    )


def _memorizer_fallback(*, worker: Worker, memory: ActiveMemory, run_input: dict) -> AgentRun:
    consolidation = migrate_active_memory(memory=memory, trigger=ConsolidationRun.Trigger.API)
    return AgentRun.objects.create(
        worker=worker,
        agent=AgentRun.Agent.MEMORIZER,
        input=run_input,
        status=AgentRun.Status.OK,
        answer=_fallback_answer(consolidation, run_input["shortterm_memory_id"] is not None),
        result={
            "fallback": "deterministic",
            "consolidation_run_id": consolidation.pk,
            "outcomes": consolidation.outcomes,
        },
        finished_at=consolidation.finished_at,
        duration_ms=consolidation.duration_ms,
    )


# --- The retriever -------------------------------------------------------------------------

_CITATION = re.compile(r"\b(active|shortterm|longterm)\s*(?:memory\s*)?[:#]\s*(\d+)", re.I)
_TOOL_TIER = {
    "get_detailed_active_memories": "active",
    "search_shortterm_memory": "shortterm",
    "search_longterm_memory": "longterm",
}


def _hits(tier: str, items) -> list[tuple[str, int, str]]:
    found = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        if isinstance(item.get("results"), list):  # search_queries: one group per memory
            found += _hits(tier, item["results"])
            continue
        memory_id = item.get("active_memory_id", item.get("memory_id", item.get("id")))
        title = item.get("title", item.get("memory_title", ""))
        if isinstance(memory_id, int):
            found.append((tier, memory_id, str(title or "")))
    return found


def _memories_seen(state: LoopState) -> dict[tuple[str, int], str]:
    """The memories the run's tool calls returned, in order: (tier, id) → title."""
    seen: dict[tuple[str, int], str] = {}
    for tool, result in state.results:
        if tool == "retrieve" and isinstance(result, dict):
            groups = result.get("results") or {}
            found = [
                hit
                for tier in ("active", "shortterm", "longterm")
                for hit in _hits(tier, groups.get(tier))
            ]
        elif tool in _TOOL_TIER:
            items = result.get("results") if isinstance(result, dict) else result
            found = _hits(_TOOL_TIER[tool], items)
        else:
            found = []
        for tier, memory_id, title in found:
            seen.setdefault((tier, memory_id), title)
    return seen


def _memories_used(state: LoopState) -> dict:
    """The memories the answer cites that a tool returned; with no citation, every memory
    the tools returned (the answer was made from them). The answer gets a "Memories used"
    line when it lacks one."""
    seen = _memories_seen(state)
    cited = list(
        dict.fromkeys((tier.lower(), int(i)) for tier, i in _CITATION.findall(state.answer))
    )
    used = [key for key in cited if key in seen] or list(seen)
    memories = [
        {"tier": tier, "id": memory_id, "title": seen[(tier, memory_id)]}
        for tier, memory_id in used
    ]
    if memories and not any(key in seen for key in cited):
        listed = "; ".join(f"[{m['tier']}:{m['id']}] {m['title']}".strip() for m in memories)
        state.answer = f"{state.answer}\n\nMemories used: {listed}".strip()
    return {
        "memories_used": memories,
        "cited": any(key in seen for key in cited),
        "unverified_citations": [f"{tier}:{i}" for tier, i in cited if (tier, i) not in seen],
    }


def retriever_run(*, worker: Worker, query: str) -> AgentRun:
    """The retrieve agent on one query: an answer and the memories it used."""
    if not llm_configured():
        raise NoLLMError(RETRIEVER.name)
    tiers, reason = choose_tiers(query)
    user = (
        f"Search Query: {query.strip()}\n\n"
        f"Seed 003's tier rules read this query as: {', '.join(tiers)} ({reason}).\n\n"
        f"Active Memory Summaries:\n{_active_summaries(worker)}\n\n"
        f"Shortterm Memory Summaries:\n{_shortterm_summaries(worker)}"
    )
    return agent_run(
        worker=worker,
        spec=RETRIEVER,
        user_message=user,
        run_input={"query": query},
        finish=_memories_used,
    )
