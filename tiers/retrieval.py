"""Retrieval across the three tiers, and the combined context block an agent pastes into
its prompt. Every surface (REST, the tool manifest, MCP, the memory agents, the client)
calls these two functions.

- ``retrieve``: one query over active (section titles and text, lexical), shortterm
  (hybrid) and longterm (hybrid, ``valid_at``), grouped per tier. ``tiers="auto"``
  applies seed 003's tier selection: "current / now / working on" → active first;
  "recent / yesterday / how did I" → shortterm; "general / always / historically /
  principles / patterns" → longterm; and longterm too when nothing relevant was found.
- ``build_context``: seed 002's combined context — a time-ordered "Recent context"
  (shortterm, full content for important memories) and a semantic "Relevant past
  experience" (longterm, with relevance) — under a token budget counted with the
  embedding model's tokenizer; the least relevant items go first; an item in both tiers
  appears once.
"""

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date

from django.conf import settings

from memoryhub.errors import DomainError
from memoryhub.models import Worker
from memoryhub.providers.embeddings import get_embedder
from tiers.models import ActiveMemory, MemoryUsage, ShorttermChunk, ShorttermMemory
from tiers.search import search
from tiers.search.hits import SearchHit
from tiers.selectors.active import active_memory_sections_view

TIERS = ("active", "shortterm", "longterm")

_ACTIVE_CUES = re.compile(
    r"\b(?:current(?:ly)?|right now|now|today|at the moment|working on|in progress|status|"
    r"this (?:task|session|sprint)|next steps?|to-?do|ongoing|so far)\b",
    re.I,
)
_SHORTTERM_CUES = re.compile(
    r"\b(?:recent(?:ly)?|yesterday|last (?:week|night|time|session|few days|month)|earlier|"
    r"this week|few days|days? ago|hours? ago|how did (?:i|we|you)|what errors?|"
    r"encounter(?:ed)?|lately)\b",
    re.I,
)
_LONGTERM_CUES = re.compile(
    r"\b(?:general(?:ly)?|always|usually|historical(?:ly)?|history|over time|principles?|"
    r"patterns?|best practices?|polic(?:y|ies)|conventions?|originally|in the past|"
    r"used to|ever|foundational|long-term|years?)\b",
    re.I,
)
_WORD = re.compile(r"[a-z0-9]+")
_STOP = set(
    "a an the and or of to in on at for by with from is are was were be been it its this that "
    "what which who whom how when where why do does did i we you my our your me us about".split()
)


def choose_tiers(query: str) -> tuple[list[str], str]:
    """Seed 003's tier selection for ``tiers="auto"``: the tiers to search first, and why.
    (Longterm is added afterwards when these find nothing relevant.)"""
    if _LONGTERM_CUES.search(query):
        return ["longterm", "shortterm"], "asks for general or historical knowledge"
    if _ACTIVE_CUES.search(query):
        return ["active", "shortterm"], "asks about the current task"
    if _SHORTTERM_CUES.search(query):
        return ["shortterm", "active"], "asks about recent work"
    return ["shortterm", "active"], "no time cue: working and recent memory first"


def parse_tiers(tiers) -> list[str] | None:
    """``"auto"`` (None), or a list / comma-separated text of tier names."""
    if tiers in (None, "", "auto"):
        return None
    if isinstance(tiers, str):
        tiers = [t.strip() for t in tiers.split(",") if t.strip()]
    if not isinstance(tiers, (list, tuple)) or not tiers or not all(t in TIERS for t in tiers):
        raise DomainError(
            f"tiers must be auto or a list of {', '.join(TIERS)}",
            fields={"tiers": f"auto or a list of {', '.join(TIERS)}"},
        )
    return list(dict.fromkeys(tiers))


def _terms(text: str) -> list[str]:
    words = []
    for word in _WORD.findall(text.lower()):
        if word in _STOP:
            continue
        if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]  # plural → singular, enough for section matching
        words.append(word)
    return words


def search_active(*, worker: Worker, query: str, limit: int) -> list[dict]:
    """Lexical search over the worker's active sections (title, section name, content):
    Okapi BM25 over the sections, computed here (a worker holds tens of sections, not
    thousands)."""
    query_terms = set(_terms(query))
    if not query_terms:
        return []
    docs = []
    for memory in ActiveMemory.objects.filter(worker=worker).order_by("-updated_at", "-id"):
        for section in active_memory_sections_view(memory):
            if not section["content"].strip():
                continue
            text = f"{memory.title} {section['name']} {section['content']}"
            docs.append((memory, section, Counter(_terms(text))))
    if not docs:
        return []
    n = len(docs)
    avgdl = sum(sum(tf.values()) for _, _, tf in docs) / n or 1.0
    df = Counter(term for _, _, tf in docs for term in set(tf) & query_terms)
    k1, b = settings.MEMORYHUB_SEARCH["bm25_k1"], settings.MEMORYHUB_SEARCH["bm25_b"]
    scored = []
    for memory, section, tf in docs:
        length = sum(tf.values())
        score = 0.0
        for term in query_terms & set(tf):
            idf = math.log(1.0 + (n - df[term] + 0.5) / (df[term] + 0.5))
            score += idf * tf[term] * (k1 + 1) / (tf[term] + k1 * (1 - b + b * length / avgdl))
        if score > 0:
            scored.append((score, memory, section))
    scored.sort(key=lambda row: (-row[0], -row[1].pk, row[2]["id"]))
    return [
        {
            "active_memory_id": memory.pk,
            "title": memory.title,
            "section_id": section["id"],
            "section_name": section["name"],
            "content": section["content"],
            "update_count": section["update_count"],
            "score": round(score, 4),
            "rank": rank,
            "updated_at": memory.updated_at,
        }
        for rank, (score, memory, section) in enumerate(scored[:limit], start=1)
    ]


@dataclass
class Retrieval:
    query: str
    tiers: list[str]  # searched, in order
    reason: str
    active: list[dict] = field(default_factory=list)
    shortterm: list[SearchHit] = field(default_factory=list)
    longterm: list[SearchHit] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "query": self.query,
            "tiers": self.tiers,
            "reason": self.reason,
            "results": {
                "active": self.active,
                "shortterm": [hit.as_dict() for hit in self.shortterm],
                "longterm": [hit.as_dict() for hit in self.longterm],
            },
        }


def _relevant(hits: list[SearchHit], floor: float) -> bool:
    return any(hit.similarity is not None and hit.similarity >= floor for hit in hits)


def retrieve(
    *,
    worker: Worker,
    query: str,
    tiers="auto",
    limit: int | None = None,
    valid_at=None,
    mode: str = "hybrid",
    with_graph: bool = False,
) -> Retrieval:
    """One query over the tiers (``"auto"`` or a list), ``limit`` results per tier."""
    config = settings.MEMORYHUB_RETRIEVAL
    if not isinstance(query, str) or not query.strip():
        raise DomainError("query must be a non-empty string", fields={"query": "must not be empty"})
    limit = config["default_limit"] if limit is None else limit
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 100:
        raise DomainError("limit must be 1 to 100", fields={"limit": "must be 1 to 100"})
    chosen = parse_tiers(tiers)
    auto = chosen is None
    reason = "tiers asked for"
    if auto:
        chosen, reason = choose_tiers(query)
    result = Retrieval(query=query.strip(), tiers=[], reason=reason)
    options = {"mode": mode, "limit": limit, "with_graph": with_graph}
    for tier in chosen:
        _search_tier(result, worker, tier, options, valid_at)
    if auto and "longterm" not in chosen:
        if not _relevant(result.shortterm, config["relevance_floor"]) and not result.active:
            _search_tier(result, worker, "longterm", options, valid_at)
            result.reason += "; nothing relevant found, so longterm too"
    return result


def _search_tier(result: Retrieval, worker: Worker, tier: str, options: dict, valid_at) -> None:
    result.tiers.append(tier)
    if tier == "active":
        result.active = search_active(worker=worker, query=result.query, limit=options["limit"])
    elif tier == "shortterm":
        result.shortterm = search(worker=worker, query=result.query, corpus="shortterm", **options)
    else:
        extra = {} if valid_at is None else {"valid_at": valid_at}
        result.longterm = search(
            worker=worker, query=result.query, corpus="longterm", **options, **extra
        )


# --- Combined context (seed 002) -----------------------------------------------------


@dataclass
class ContextItem:
    section: str  # "recent" or "past"
    relevance: float
    text: str  # the markdown lines of the item
    tokens: int = 0
    ref: dict = field(default_factory=dict)


def _line_date(moment) -> str:
    return moment.strftime("%Y-%m-%d %H:%M") if moment else ""


def _said_date(metadata) -> str:
    """The date a memory's metadata gives for what it holds (``session_date`` or ``date``,
    ISO), "" when none: a conversation stored later is dated by when it was said."""
    if not isinstance(metadata, dict):
        return ""
    for key in ("session_date", "date"):
        value = metadata.get(key)
        if isinstance(value, str) and re.match(r"^\d{4}-\d{2}-\d{2}", value):
            try:
                return date.fromisoformat(value[:10]).strftime("%A %-d %B %Y")
            except ValueError:
                continue
    return ""


def _short(text: str, words: int = 40) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


def build_context(
    *,
    worker: Worker,
    query: str,
    max_short: int | None = None,
    max_long: int | None = None,
    token_budget: int | None = None,
    valid_at=None,
) -> dict:
    """The combined context block: ``{markdown, tokens, items: [...], dropped: [...]}``."""
    config = settings.MEMORYHUB_RETRIEVAL
    max_short = config["max_short"] if max_short is None else max_short
    max_long = config["max_long"] if max_long is None else max_long
    for name, value in (("max_short", max_short), ("max_long", max_long)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 200:
            raise DomainError(f"{name} must be 0 to 200", fields={name: "must be 0 to 200"})
    if token_budget is not None and (
        not isinstance(token_budget, int) or isinstance(token_budget, bool) or token_budget < 50
    ):
        raise DomainError(
            "token_budget must be an integer of at least 50",
            fields={"token_budget": "at least 50"},
        )
    if not isinstance(query, str) or not query.strip():
        raise DomainError("query must be a non-empty string", fields={"query": "must not be empty"})
    recent, seen = _recent_items(worker, query, max_short) if max_short else ([], set())
    past = []
    if max_long:
        extra = {} if valid_at is None else {"valid_at": valid_at}
        hits = search(
            worker=worker, query=query, corpus="longterm", limit=max_long, mode="hybrid", **extra
        )
        for hit in hits:
            key = (hit.memory_id, hit.content)
            if key in seen:
                continue  # the same knowledge is in the recent context already
            seen.add(key)
            relevance = round(max(hit.similarity or 0.0, 0.0), 3)
            important = (hit.confidence or 0) >= config["full_content_confidence"]
            body = hit.content if important else _short(hit.content)
            since = _line_date(hit.start_date)
            past.append(
                ContextItem(
                    section="past",
                    relevance=relevance,
                    text=f"- [{hit.memory_title}] {body} (relevance: {relevance:.2f}; "
                    f"since {since})",
                    ref={"tier": "longterm", "chunk_id": hit.chunk_id, "memory_id": hit.memory_id},
                )
            )
    embedder = get_embedder()
    for item in recent + past:
        item.tokens = embedder.count_tokens(item.text)
    dropped = []
    headings = {
        "recent": "## Recent context (shortterm memory)",
        "past": "## Relevant past experience (longterm memory)",
    }
    heading_tokens = sum(embedder.count_tokens(h) for h in headings.values())
    kept = recent + past
    if token_budget is not None:
        total = heading_tokens + sum(item.tokens for item in kept)
        for item in sorted(kept, key=lambda i: (i.relevance, i.section == "recent")):
            if total <= token_budget:
                break
            dropped.append(item)
            total -= item.tokens
        kept = [item for item in kept if item not in dropped]
    lines = []
    for section, heading in headings.items():
        items = [item for item in kept if item.section == section]
        if not items:
            continue
        lines += [heading, "", *(item.text for item in items), ""]
    markdown = "\n".join(lines).strip() + ("\n" if lines else "")
    return {
        "query": query.strip(),
        "markdown": markdown,
        "tokens": embedder.count_tokens(markdown) if markdown else 0,
        "token_budget": token_budget,
        "items": [
            item.ref | {"section": item.section, "relevance": item.relevance, "tokens": item.tokens}
            for item in kept
        ],
        "dropped": [
            item.ref | {"section": item.section, "relevance": item.relevance, "tokens": item.tokens}
            for item in dropped
        ],
    }


def _recent_items(worker: Worker, query: str, limit: int) -> tuple[list[ContextItem], set]:
    """The latest shortterm memories, oldest first (a time line), each with its relevance
    to the query (its best chunk's cosine) and, when important, its full content; and the
    (memory, chunk content) pairs they hold."""
    config = settings.MEMORYHUB_RETRIEVAL
    memories = list(
        ShorttermMemory.objects.filter(worker=worker).order_by("-last_updated", "-id")[:limit]
    )
    if not memories:
        return [], set()
    ids = [m.pk for m in memories]
    relevance: dict[int, float] = {}
    for hit in search(
        worker=worker,
        query=query,
        corpus="shortterm",
        mode="vector",
        limit=min(100, max(limit * 3, 10)),
        filters={"memory_ids": ids},
    ):
        relevance.setdefault(hit.memory_id, max(hit.similarity or 0.0, 0.0))
    importance = dict(
        MemoryUsage.objects.filter(memory_id__in=ids).values_list("memory_id", "importance")
    )
    chunks: dict[int, list[str]] = {}
    for memory_id, content in (
        ShorttermChunk.objects.filter(memory_id__in=ids)
        .order_by("memory_id", "chunk_order")
        .values_list("memory_id", "content")
    ):
        chunks.setdefault(memory_id, []).append(content)
    items = []
    for memory in reversed(memories):  # time order
        text = "\n".join(chunks.get(memory.pk, []))
        important = importance.get(memory.pk, 0.0) >= config["full_content_importance"]
        body = text if important else (memory.summary or _short(text))
        said = _said_date(memory.metadata)
        when = f"said {said}" if said else _line_date(memory.last_updated)
        items.append(
            ContextItem(
                section="recent",
                relevance=round(relevance.get(memory.pk, 0.0), 3),
                text=f"- [{memory.title}] ({when}) {body}".rstrip(),
                ref={"tier": "shortterm", "memory_id": memory.pk},
            )
        )
    held = {(memory_id, content) for memory_id, texts in chunks.items() for content in texts}
    return items, held
