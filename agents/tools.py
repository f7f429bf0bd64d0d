"""The one tool registry: every tool an agent may call, with its arguments (a DRF
serializer), a description written for a language model, and a handler that calls the
same service and selector functions as the REST endpoints.

Every surface reads it: ``GET /api/v1/tools`` (the OpenAI function-calling manifest),
``POST /api/v1/workers/{id}/tools/{name}``, the MCP server (``manage.py mcp_server``) and
the in-process memory agents (seed 003: the update agent, the memorizer, the retriever).

- ``tool_list()``, ``tool_get(name)``: the tools (``NotFoundError`` for an unknown name);
- ``call_tool(worker=, name=, arguments=)``: validate, call, return plain JSON data; bad
  arguments are a ``DomainError`` naming the fields;
- ``openai_tools(names=None)``: ``[{"type": "function", "function": {...}}]``;
- ``json_schema(serializer_class)``: the JSON Schema of a serializer's fields.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers
from rest_framework.utils.encoders import JSONEncoder

from consolidation.api.serializers import AutoResolveSerializer
from consolidation.services.auto_resolve import auto_resolve
from graph.selectors.graph import memories_graph
from graph.services.edit import memory_graph_update
from graph.vocabulary import ENTITY_TYPES
from memoryhub.api.errors import flatten_errors
from memoryhub.api.fields import JSONObjectField, StrictCharField
from memoryhub.errors import DomainError, NotFoundError
from memoryhub.models import Worker
from memoryhub.validation import moment
from tiers.api.active_serializers import (
    ActiveMemoryCreateSerializer,
    ActiveMemorySerializer,
    ActiveMemorySummarySerializer,
    ActiveMemoryUpdateSerializer,
)
from tiers.api.longterm_serializers import MemoryEventSerializer
from tiers.api.shortterm_serializers import (
    ShorttermChunkSerializer,
    ShorttermCreateSerializer,
    ShorttermMemorySerializer,
    ShorttermMemorySummarySerializer,
    ShorttermUpdateSerializer,
)
from tiers.models import ShorttermMemory
from tiers.retrieval import TIERS, build_context, retrieve
from tiers.search import MODES, search, search_queries
from tiers.selectors.active import active_memories_get_many, active_memory_get, active_memory_list
from tiers.selectors.shortterm import shortterm_memory_get, shortterm_recent
from tiers.services.active import active_memory_create, active_memory_update
from tiers.services.shortterm import (
    shortterm_chunks_add,
    shortterm_chunks_update,
    shortterm_memory_create,
    shortterm_memory_update,
)
from tiers.services.usage import AGENT_KINDS, usage_record, usage_record_accesses


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    serializer: type[serializers.Serializer]  # the arguments
    handler: Callable[[Worker, dict], Any]  # validated arguments -> JSON-able result
    writes: bool = False


# --- JSON Schema from DRF serializers ---------------------------------------------------


def _field_schema(field: serializers.Field) -> dict:
    if isinstance(field, serializers.ListSerializer):
        items = _field_schema(field.child)
        if field.help_text and items.get("description") == field.help_text:  # DRF gives both
            del items["description"]
        schema = {"type": "array", "items": items}
        if not field.allow_empty:
            schema["minItems"] = 1
    elif isinstance(field, serializers.Serializer):
        schema = _object_schema(field)
    elif isinstance(field, serializers.ListField):
        schema = {"type": "array", "items": _field_schema(field.child)}
        minimum = (
            field.min_length if field.min_length is not None else (0 if field.allow_empty else 1)
        )
        if minimum:
            schema["minItems"] = minimum
        if field.max_length is not None:
            schema["maxItems"] = field.max_length
    elif isinstance(field, serializers.DictField):
        schema = {"type": "object", "additionalProperties": _field_schema(field.child)}
    elif isinstance(field, JSONObjectField):
        schema = {"type": "object"}
    elif isinstance(field, serializers.JSONField):
        schema = {}  # any JSON value
    elif isinstance(field, serializers.BooleanField):
        schema = {"type": "boolean"}
    elif isinstance(field, serializers.ChoiceField):
        values = list(field.choices)
        schema = {"enum": values}
        if all(isinstance(value, str) for value in values):
            schema["type"] = "string"
        elif all(isinstance(value, int) for value in values):
            schema["type"] = "integer"
    elif isinstance(field, serializers.IntegerField):
        schema = {"type": "integer"} | _bounds(field)
    elif isinstance(field, (serializers.FloatField, serializers.DecimalField)):
        schema = {"type": "number"} | _bounds(field)
    elif isinstance(field, serializers.DateTimeField):
        schema = {"type": "string", "format": "date-time"}
    elif isinstance(field, serializers.DateField):
        schema = {"type": "string", "format": "date"}
    elif isinstance(field, serializers.CharField):
        schema = {"type": "string"}
        if field.max_length is not None:
            schema["maxLength"] = field.max_length
        if field.min_length is not None:
            schema["minLength"] = field.min_length
        elif not field.allow_blank:
            schema["minLength"] = 1
    else:
        schema = {}
    if getattr(field, "allow_null", False) and "type" in schema:
        schema["type"] = [schema["type"], "null"]
    if field.help_text:
        schema["description"] = str(field.help_text)
    default = field.default
    if default is not serializers.empty and not callable(default) and default is not None:
        schema["default"] = default
    return schema


def _bounds(field) -> dict:
    bounds = {}
    if field.min_value is not None:
        bounds["minimum"] = field.min_value
    if field.max_value is not None:
        bounds["maximum"] = field.max_value
    return bounds


def _object_schema(serializer: serializers.Serializer) -> dict:
    properties, required = {}, []
    for name, field in serializer.fields.items():
        if field.read_only:
            continue
        properties[name] = _field_schema(field)
        if field.required:
            required.append(name)
    schema: dict = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def json_schema(serializer_class) -> dict:
    """The JSON Schema of a serializer's writable fields: types, ``required``, ``enum``
    for choices, bounds, nested serializers and list children, ``help_text`` as the
    description; a ``JSONField`` takes any value. Unknown arguments are refused."""
    serializer = serializer_class()
    schema = _object_schema(serializer)
    if serializer_class.__doc__:
        schema["description"] = " ".join(serializer_class.__doc__.split())
    schema["additionalProperties"] = False
    return schema


# --- Arguments --------------------------------------------------------------------------
# Where a REST request serializer fits, the arguments are that serializer (or a subclass
# naming the memory the URL would name); the names are seed 003's.

_MAX_LIMIT = settings.MEMORYHUB_SEARCH["max_limit"]

NOTE_TEMPLATE = """\
template:
  id: note
  name: Note
  version: "1.0"
sections:
  - id: content
    name: Content
    description: The memory's content
    required: true
"""

_MOMENT_HELP = "ISO 8601 date or date-time (no zone: the server's zone)"


class ListActiveMemoriesArguments(serializers.Serializer):
    limit = serializers.IntegerField(
        required=False, min_value=1, max_value=200, default=50, help_text="at most this many"
    )


class GetDetailedActiveMemoriesArguments(serializers.Serializer):
    active_memory_ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        allow_empty=False,
        max_length=settings.MEMORYHUB_API["max_batch_ids"],
        help_text="ids from the active memory summaries",
    )


class CreateActiveMemoryArguments(ActiveMemoryCreateSerializer):
    template_content = StrictCharField(
        required=False,
        trim_whitespace=False,
        help_text="YAML template of the memory's sections; default: one required section 'content'",
    )
    content = StrictCharField(
        required=False,
        trim_whitespace=False,
        help_text="markdown for the 'content' section of the default template",
    )

    def validate(self, attrs):
        if "template_content" not in attrs and "content" not in attrs:
            raise serializers.ValidationError(
                {"content": "give content (or template_content and initial_sections)"}
            )
        return attrs


class UpdateActiveMemoryArguments(ActiveMemoryUpdateSerializer):
    memory_id = serializers.IntegerField(min_value=1, help_text="the active memory to update")
    content = StrictCharField(
        required=False,
        trim_whitespace=False,
        help_text="the new full markdown of the 'content' section (replaces it)",
    )

    def validate(self, attrs):
        if set(attrs) <= {"memory_id"}:
            raise serializers.ValidationError(
                "give at least one of title, description, content, sections, metadata, "
                "template_content"
            )
        return attrs


class AutoResolveArguments(AutoResolveSerializer):
    active_memory_id = serializers.IntegerField(
        min_value=1, help_text="the active memory being consolidated"
    )
    shortterm_memory_id = serializers.IntegerField(
        min_value=1, help_text="the candidate shortterm memory it goes into"
    )


class NewChunkSerializer(serializers.Serializer):
    content = StrictCharField(
        trim_whitespace=False, help_text="the chunk's text (long text is split)"
    )
    context = StrictCharField(
        required=False,
        allow_blank=True,
        help_text="a short context line put in front of the content, e.g. "
        "'[Context: Authentication - token management]'",
    )
    metadata = JSONObjectField(required=False)


class CreateShorttermMemoryArguments(ShorttermCreateSerializer):
    content = StrictCharField(
        required=False, trim_whitespace=False, help_text="text to chunk and store"
    )
    chunks = NewChunkSerializer(many=True, required=False, help_text="explicit chunks")


class UpdateShorttermMemoryArguments(ShorttermUpdateSerializer):
    shortterm_memory_id = serializers.IntegerField(min_value=1)

    def validate(self, attrs):
        if set(attrs) <= {"shortterm_memory_id"}:
            raise serializers.ValidationError("give at least one of title, summary, metadata")
        return attrs


class ChunkUpdateSerializer(serializers.Serializer):
    chunk_id = serializers.IntegerField(min_value=1)
    new_content = StrictCharField(trim_whitespace=False, help_text="the chunk's full new text")


class UpdateShorttermMemoryChunksArguments(serializers.Serializer):
    shortterm_memory_id = serializers.IntegerField(min_value=1)
    chunk_updates = ChunkUpdateSerializer(many=True, allow_empty=False)


class AddNewShorttermMemoryChunksArguments(serializers.Serializer):
    shortterm_memory_id = serializers.IntegerField(min_value=1)
    new_chunks = NewChunkSerializer(many=True, allow_empty=False)


class EntityUpdateSerializer(serializers.Serializer):
    entity_id = serializers.IntegerField(min_value=1)
    name = StrictCharField(required=False, max_length=300)
    type = serializers.ChoiceField(choices=ENTITY_TYPES, required=False)
    description = StrictCharField(required=False, allow_blank=True)
    confidence = serializers.FloatField(required=False, min_value=0, max_value=1)


class RelationshipUpdateSerializer(serializers.Serializer):
    relationship_id = serializers.IntegerField(min_value=1)
    type = StrictCharField(required=False, max_length=64, help_text="e.g. USES, WORKS_AT")
    description = StrictCharField(required=False, allow_blank=True)
    confidence = serializers.FloatField(required=False, min_value=0, max_value=1)
    strength = serializers.FloatField(required=False, min_value=0, max_value=1)


class NewRelationshipSerializer(serializers.Serializer):
    from_id = serializers.IntegerField(min_value=1, help_text="entity id")
    to_id = serializers.IntegerField(min_value=1, help_text="entity id")
    type = StrictCharField(max_length=64, help_text="e.g. USES, WORKS_AT")
    description = StrictCharField(required=False, allow_blank=True)
    confidence = serializers.FloatField(required=False, min_value=0, max_value=1)
    strength = serializers.FloatField(required=False, min_value=0, max_value=1)


class UpdateEntitiesRelationshipsArguments(serializers.Serializer):
    shortterm_memory_id = serializers.IntegerField(min_value=1)
    entity_updates = EntityUpdateSerializer(many=True, required=False)
    relationship_updates = RelationshipUpdateSerializer(many=True, required=False)
    new_relationships = NewRelationshipSerializer(many=True, required=False)


class ListShorttermMemoriesArguments(serializers.Serializer):
    limit = serializers.IntegerField(required=False, min_value=1, max_value=_MAX_LIMIT, default=20)
    since = StrictCharField(
        required=False, help_text=f"only memories updated since: {_MOMENT_HELP}"
    )


class ShorttermSearchCriteria(serializers.Serializer):
    shortterm_memory_id = serializers.IntegerField(min_value=1)
    search_content = StrictCharField(help_text="what to look for in that memory")


class SearchShorttermMemoryArguments(serializers.Serializer):
    """Give query (over all the worker's shortterm memories) or search_queries (each
    searched within its memory), not both."""

    query = StrictCharField(required=False, help_text="text to search for in all memories")
    search_queries = ShorttermSearchCriteria(many=True, required=False, allow_empty=False)
    similarity_threshold = serializers.FloatField(
        required=False,
        min_value=-1,
        max_value=1,
        help_text="minimum cosine similarity (0.5 broad, 0.75 specific); default none",
    )
    limit = serializers.IntegerField(
        required=False, min_value=1, max_value=_MAX_LIMIT, help_text="results (per query)"
    )
    mode = serializers.ChoiceField(choices=MODES, default="hybrid")
    memory_ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        allow_empty=False,
        help_text="with query: only these memories",
    )
    include_graph = serializers.BooleanField(
        required=False, default=True, help_text="each hit's entities and relationships"
    )
    session_id = StrictCharField(
        required=False,
        max_length=200,
        allow_blank=True,
        help_text="your conversation session: the hits' memories record an access in it",
    )

    def validate(self, attrs):
        if ("query" in attrs) == ("search_queries" in attrs):
            raise serializers.ValidationError(
                {"query": "give exactly one of query and search_queries"}
            )
        return attrs


class SearchLongtermMemoryArguments(serializers.Serializer):
    search_content = StrictCharField(help_text="what to look for")
    time_range = serializers.ListField(
        child=StrictCharField(allow_null=True),
        required=False,
        min_length=2,
        max_length=2,
        help_text=f"[start, end], each {_MOMENT_HELP} or null (open)",
    )
    valid_at = StrictCharField(
        required=False, help_text=f"the knowledge as it was then: {_MOMENT_HELP}"
    )
    confidence_threshold = serializers.FloatField(
        required=False, min_value=0, max_value=1, help_text="only knowledge at least this confident"
    )
    limit = serializers.IntegerField(required=False, min_value=1, max_value=_MAX_LIMIT, default=10)
    mode = serializers.ChoiceField(choices=MODES, default="hybrid")
    include_graph = serializers.BooleanField(required=False, default=False)


class RetrieveArguments(serializers.Serializer):
    query = StrictCharField(help_text="what to look for")
    tiers = serializers.ListField(
        child=serializers.ChoiceField(choices=TIERS),
        required=False,
        allow_empty=False,
        help_text="tiers to search; omit to let the query choose (current → active, recent "
        "→ shortterm, general/historical → longterm)",
    )
    limit = serializers.IntegerField(
        required=False, min_value=1, max_value=100, help_text="results per tier (10)"
    )
    mode = serializers.ChoiceField(choices=MODES, default="hybrid")
    valid_at = StrictCharField(required=False, help_text=f"longterm as of: {_MOMENT_HELP}")
    include_graph = serializers.BooleanField(required=False, default=False)


class BuildContextArguments(serializers.Serializer):
    query = StrictCharField(help_text="the task the context is for")
    max_short = serializers.IntegerField(
        required=False, min_value=0, max_value=200, help_text="recent shortterm memories (30)"
    )
    max_long = serializers.IntegerField(
        required=False, min_value=0, max_value=200, help_text="longterm items (15)"
    )
    token_budget = serializers.IntegerField(
        required=False, min_value=50, help_text="at most this many tokens"
    )
    valid_at = StrictCharField(required=False, help_text=f"longterm as of: {_MOMENT_HELP}")


class RecordMemoryEventArguments(serializers.Serializer):
    shortterm_memory_id = serializers.IntegerField(min_value=1)
    kind = serializers.ChoiceField(
        choices=AGENT_KINDS,
        help_text="access: you used it; confirm: it proved right; correct: you fixed it; "
        "contradict: new information disagrees; mark_important; user_mention: the user "
        "referred to it",
    )
    chunk_id = serializers.IntegerField(required=False, min_value=1, help_text="one chunk of it")
    session_id = StrictCharField(required=False, max_length=200, allow_blank=True)
    detail = StrictCharField(required=False, max_length=2000, allow_blank=True)
    importance = serializers.FloatField(
        required=False, min_value=0, max_value=10, help_text="0-10, with mark_important"
    )


# --- Handlers ---------------------------------------------------------------------------


def _renamed(exc: DomainError, names: dict[str, str]) -> DomainError:
    """The service's field names in the tool's words (``updates[0]`` → ``chunk_updates[0]``)."""
    fields = {}
    for key, message in exc.fields.items():
        for old, new in names.items():
            if key == old or key.startswith((f"{old}.", f"{old}[")):
                key = new + key[len(old) :]
                break
        fields[key] = message
    return type(exc)(exc.detail, fields=fields, code=exc.code)


def _list_active_memories(worker, args):
    memories = active_memory_list(worker=worker).order_by("-updated_at", "-id")[: args["limit"]]
    return ActiveMemorySummarySerializer(memories, many=True).data


def _get_detailed_active_memories(worker, args):
    memories = active_memories_get_many(
        worker=worker,
        ids=args["active_memory_ids"],
        max_ids=settings.MEMORYHUB_API["max_batch_ids"],
    )
    return ActiveMemorySerializer(memories, many=True).data


def _create_active_memory(worker, args):
    sections = dict(args.get("initial_sections") or {})
    if "content" in args:
        sections["content"] = args["content"]
    memory = active_memory_create(
        worker=worker,
        title=args["title"],
        description=args["description"],
        template_yaml=args.get("template_content", NOTE_TEMPLATE),
        initial_sections=sections,
        metadata=args.get("metadata"),
    )
    return ActiveMemorySerializer(memory).data


def _update_active_memory(worker, args):
    memory = active_memory_get(worker=worker, memory_id=args["memory_id"])
    sections = dict(args.get("sections") or {})
    if "content" in args:
        sections["content"] = args["content"]
    memory = active_memory_update(
        memory=memory,
        title=args.get("title"),
        description=args.get("description"),
        template_yaml=args.get("template_content"),
        metadata=args.get("metadata"),
        sections=sections or None,
    )
    return ActiveMemorySerializer(memory).data


def _auto_resolve(worker, args):
    active = active_memory_get(worker=worker, memory_id=args["active_memory_id"])
    shortterm = shortterm_memory_get(worker=worker, memory_id=args["shortterm_memory_id"])
    return auto_resolve(
        active=active, shortterm=shortterm, section=args.get("section"), limit=args["limit"]
    )


def _shortterm_memory(memory) -> dict:
    memory = ShorttermMemory.objects.prefetch_related("chunks").get(pk=memory.pk)
    return ShorttermMemorySerializer(memory).data


def _create_shortterm_memory(worker, args):
    return _shortterm_memory(shortterm_memory_create(worker=worker, **args))


def _update_shortterm_memory(worker, args):
    args = dict(args)
    memory = shortterm_memory_get(worker=worker, memory_id=args.pop("shortterm_memory_id"))
    return _shortterm_memory(shortterm_memory_update(memory=memory, **args))


def _update_shortterm_memory_chunks(worker, args):
    memory = shortterm_memory_get(worker=worker, memory_id=args["shortterm_memory_id"])
    try:
        chunks = shortterm_chunks_update(memory=memory, updates=args["chunk_updates"])
    except DomainError as exc:
        raise _renamed(exc, {"updates": "chunk_updates"}) from exc
    return ShorttermChunkSerializer(chunks, many=True).data


def _add_new_shortterm_memory_chunks(worker, args):
    memory = shortterm_memory_get(worker=worker, memory_id=args["shortterm_memory_id"])
    try:
        chunks = shortterm_chunks_add(memory=memory, chunks=args["new_chunks"])
    except DomainError as exc:
        raise _renamed(exc, {"chunks": "new_chunks"}) from exc
    return ShorttermChunkSerializer(chunks, many=True).data


def _update_entities_relationships(worker, args):
    memory = shortterm_memory_get(worker=worker, memory_id=args["shortterm_memory_id"])
    entities = [
        {("id" if key == "entity_id" else key): value for key, value in item.items()}
        for item in args.get("entity_updates", [])
    ]
    relationships = [
        {("id" if key == "relationship_id" else key): value for key, value in item.items()}
        for item in args.get("relationship_updates", [])
    ]
    try:
        memory_graph_update(
            memory=memory,
            entities=entities,
            relationships=relationships,
            new_relationships=list(args.get("new_relationships", [])),
        )
    except DomainError as exc:
        raise _renamed(
            exc, {"entities": "entity_updates", "relationships": "relationship_updates"}
        ) from exc
    return memories_graph(worker=worker, memory_ids=[memory.pk])[memory.pk]


def _list_shortterm_memories(worker, args):
    since = moment(args["since"], "since") if "since" in args else None
    memories = shortterm_recent(
        worker=worker, limit=args["limit"], max_limit=_MAX_LIMIT, since=since
    )
    return ShorttermMemorySummarySerializer(memories, many=True).data


def _record_search_accesses(worker, hits, session_id: str) -> None:
    """As the REST search does: hits count as accesses of their memories (seed 001)."""
    if settings.MEMORYHUB_PROMOTION["record_search_access"] and hits:
        usage_record_accesses(
            worker_id=worker.pk,
            hits=[(hit.memory_id, hit.chunk_id) for hit in hits],
            session_id=session_id,
            actor="tool:search_shortterm_memory",
        )


def _search_shortterm_memory(worker, args):
    options = {"mode": args["mode"], "with_graph": args["include_graph"]}
    if "limit" in args:
        options["limit"] = args["limit"]
    if "similarity_threshold" in args:
        options["min_similarity"] = args["similarity_threshold"]
    session_id = args.get("session_id", "")
    if "search_queries" in args:
        groups = search_queries(
            worker=worker,
            queries=[dict(item) for item in args["search_queries"]],
            corpus="shortterm",
            **options,
        )
        _record_search_accesses(worker, [hit for g in groups for hit in g["hits"]], session_id)
        results = [
            {
                "shortterm_memory_id": group["shortterm_memory_id"],
                "search_content": group["search_content"],
                "results": [hit.as_dict() for hit in group["hits"]],
            }
            for group in groups
        ]
    else:
        filters = {"memory_ids": args["memory_ids"]} if "memory_ids" in args else {}
        hits = search(
            worker=worker, query=args["query"], corpus="shortterm", filters=filters, **options
        )
        _record_search_accesses(worker, hits, session_id)
        results = [hit.as_dict() for hit in hits]
    return {"mode": args["mode"], "results": results}


def _search_longterm_memory(worker, args):
    options = {
        key: args[key] for key in ("time_range", "valid_at", "confidence_threshold") if key in args
    }
    hits = search(
        worker=worker,
        query=args["search_content"],
        corpus="longterm",
        mode=args["mode"],
        limit=args["limit"],
        with_graph=args["include_graph"],
        **options,
    )
    return {"mode": args["mode"], "results": [hit.as_dict() for hit in hits]}


def _retrieve(worker, args):
    return retrieve(
        worker=worker,
        query=args["query"],
        tiers=args.get("tiers", "auto"),
        limit=args.get("limit"),
        valid_at=args.get("valid_at"),
        mode=args["mode"],
        with_graph=args["include_graph"],
    ).as_dict()


def _build_context(worker, args):
    return build_context(worker=worker, **args)


def _record_memory_event(worker, args):
    args = dict(args)
    try:
        event = usage_record(
            worker=worker,
            memory_id=args.pop("shortterm_memory_id"),
            actor="tool:record_memory_event",
            **args,
        )
    except DomainError as exc:
        raise _renamed(exc, {"memory_id": "shortterm_memory_id"}) from exc
    return MemoryEventSerializer(event).data


# --- The registry -----------------------------------------------------------------------

_TOOLS = [
    Tool(
        name="list_active_memories",
        description="List your active memories (working memory of the current tasks) as "
        "summaries: id, title, description and each section's name, size and update count, "
        "most recently updated first. Call this first to find the ids of memories related to "
        "new information or a question; then fetch the ones you need with "
        "get_detailed_active_memories.",
        serializer=ListActiveMemoriesArguments,
        handler=_list_active_memories,
    ),
    Tool(
        name="get_detailed_active_memories",
        description="Fetch the full content of active memories by id (all their sections, "
        "metadata, template). Use it before updating a memory, so that the update keeps what "
        "is already there, or to answer from current working memory. Unknown ids are an "
        "error naming them.",
        serializer=GetDetailedActiveMemoriesArguments,
        handler=_get_detailed_active_memories,
    ),
    Tool(
        name="create_active_memory",
        description="Create a new active memory for information that relates to no existing "
        "memory (a new task, decision record, communication thread or operational state). "
        "Give a title, a one-line description and the markdown content; content should be "
        "complete and self-contained. Advanced: give template_content (YAML sections) and "
        "initial_sections instead of content.",
        serializer=CreateActiveMemoryArguments,
        handler=_create_active_memory,
        writes=True,
    ),
    Tool(
        name="update_active_memory",
        description="Update an existing active memory when new information extends or "
        "changes it: title, description, metadata and/or content. content (or a section in "
        "sections) REPLACES that section's text, so first read the memory with "
        "get_detailed_active_memories and send the full merged text. Each section update "
        "counts towards consolidation into shortterm memory.",
        serializer=UpdateActiveMemoryArguments,
        handler=_update_active_memory,
        writes=True,
    ),
    Tool(
        name="auto_resolve",
        description="Consolidation step 1: compare an active memory with the shortterm memory "
        "it is being consolidated into. Returns active_content (use it ONLY for chunk "
        "updates/additions), similar_chunks (existing chunks to update), and "
        "entity_differences / relationship_differences. New entities and relationships are "
        "ALREADY added to the shortterm memory's graph: only resolve the reported conflicts "
        "(with update_shortterm_memory_entities_relationships).",
        serializer=AutoResolveArguments,
        handler=_auto_resolve,
        writes=True,
    ),
    Tool(
        name="create_shortterm_memory",
        description="Create a new shortterm memory (searchable, chunked, with an extracted "
        "entity graph) when consolidated knowledge fits no existing shortterm memory. Give a "
        "title, a summary, and the content (chunked for you) or explicit chunks, each "
        "understandable on its own (add a context line).",
        serializer=CreateShorttermMemoryArguments,
        handler=_create_shortterm_memory,
        writes=True,
    ),
    Tool(
        name="update_shortterm_memory",
        description="Change a shortterm memory's title, summary or metadata (not its chunks: "
        "use update_shortterm_memory_chunks or add_new_shortterm_memory_chunks for content).",
        serializer=UpdateShorttermMemoryArguments,
        handler=_update_shortterm_memory,
        writes=True,
    ),
    Tool(
        name="update_shortterm_memory_chunks",
        description="Rewrite existing chunks of a shortterm memory with merged, enhanced "
        "content (typically the similar_chunks auto_resolve returned). new_content replaces "
        "the chunk's whole text; the chunk is re-embedded, re-indexed and its graph updated. "
        "All or nothing: a chunk id that is not in this memory is an error.",
        serializer=UpdateShorttermMemoryChunksArguments,
        handler=_update_shortterm_memory_chunks,
        writes=True,
    ),
    Tool(
        name="add_new_shortterm_memory_chunks",
        description="Append new chunks to a shortterm memory for information no existing "
        "chunk covers. Each chunk must stand on its own: put a context line in 'context' "
        "(e.g. '[Context: Authentication system - token management]').",
        serializer=AddNewShorttermMemoryChunksArguments,
        handler=_add_new_shortterm_memory_chunks,
        writes=True,
    ),
    Tool(
        name="update_shortterm_memory_entities_relationships",
        description="Resolve entity and relationship conflicts of a shortterm memory's graph "
        "(the entity_differences / relationship_differences of auto_resolve): correct an "
        "entity's name, type, description or confidence by entity_id, a relationship's type, "
        "description, confidence or strength by relationship_id, or relate two of its "
        "entities (new_relationships). Do not re-create entities auto_resolve already added.",
        serializer=UpdateEntitiesRelationshipsArguments,
        handler=_update_entities_relationships,
        writes=True,
    ),
    Tool(
        name="list_shortterm_memories",
        description="List your shortterm memories (recent work: hours to days) as summaries: "
        "id, title, summary, chunk count, newest first. Scan them to pick the memories to "
        "search with search_shortterm_memory's search_queries.",
        serializer=ListShorttermMemoriesArguments,
        handler=_list_shortterm_memories,
    ),
    Tool(
        name="search_shortterm_memory",
        description="Search shortterm memory (recent work) by meaning and keywords (hybrid "
        "vector + BM25). Either give search_queries, one {shortterm_memory_id, "
        "search_content} per relevant memory from the summaries, or a plain query over all "
        "memories. Returns matching chunks with scores and their entities and relationships. "
        "Lower similarity_threshold for vague questions; do not repeat a search that found "
        "nothing.",
        serializer=SearchShorttermMemoryArguments,
        handler=_search_shortterm_memory,
    ),
    Tool(
        name="search_longterm_memory",
        description="Search longterm memory: consolidated, foundational knowledge (patterns, "
        "principles, history, requirements). Use it when the question asks what is general, "
        "always or historically true, or when active and shortterm memory have nothing. "
        "valid_at reads the knowledge as it was at a time; time_range keeps what was valid "
        "within a period; confidence_threshold drops uncertain knowledge.",
        serializer=SearchLongtermMemoryArguments,
        handler=_search_longterm_memory,
    ),
    Tool(
        name="retrieve",
        description="One question across all memory tiers at once. Without tiers, the "
        "question chooses: current task → active first; recent work → shortterm; general or "
        "historical → longterm (and longterm too when nothing relevant is found). Results are "
        "grouped per tier. The quickest way to answer 'what do I know about X'.",
        serializer=RetrieveArguments,
        handler=_retrieve,
    ),
    Tool(
        name="build_context",
        description="A ready-to-paste markdown context block for a task: 'Recent context' "
        "(latest shortterm memories in time order) and 'Relevant past experience' (longterm "
        "knowledge by relevance), within token_budget (the least relevant items are dropped "
        "first).",
        serializer=BuildContextArguments,
        handler=_build_context,
    ),
    Tool(
        name="record_memory_event",
        description="Report how a shortterm memory was used, so that useful knowledge is "
        "promoted to longterm memory: access (you used it), confirm (it proved right), "
        "correct (you fixed it), contradict (new information disagrees), mark_important, "
        "user_mention (the user referred to it).",
        serializer=RecordMemoryEventArguments,
        handler=_record_memory_event,
        writes=True,
    ),
]
_BY_NAME = {tool.name: tool for tool in _TOOLS}


def tool_list() -> list[Tool]:
    return list(_TOOLS)


def tool_get(name: str) -> Tool:
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError) as exc:
        raise NotFoundError(f"no tool named {name!r}", fields={"name": "unknown tool"}) from exc


_INDEX = re.compile(r"\.(\d+)(?=\.|$)")  # "chunks.0.content" → "chunks[0].content"


def _summary(fields: dict[str, str]) -> str:
    return "; ".join(f"{name}: {message}" for name, message in fields.items())


def tool_arguments(tool: Tool, arguments) -> dict:
    """The validated arguments of a call; a ``DomainError`` naming each bad field."""
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise DomainError(
            f"the arguments of {tool.name} must be a JSON object",
            fields={"arguments": "must be a JSON object"},
            code="validation_error",
        )
    payload = tool.serializer(data=arguments)
    unknown = [key for key in arguments if key not in payload.fields]
    if unknown:
        fields = {str(key): "unknown argument" for key in unknown}
        raise DomainError(
            f"{tool.name} takes no argument(s) {', '.join(map(repr, unknown))}; it takes: "
            f"{', '.join(payload.fields)}",
            fields=fields,
            code="validation_error",
        )
    if not payload.is_valid():
        fields = {
            _INDEX.sub(r"[\1]", key): message
            for key, message in flatten_errors(payload.errors).items()
        }
        raise DomainError(
            f"invalid arguments for {tool.name}: {_summary(fields)}",
            fields=fields,
            code="validation_error",
        )
    return _plain(payload.validated_data)


def _plain(value):
    """Validated data as plain dicts and lists (nested serializers give OrderedDicts)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def call_tool(*, worker: Worker, name: str, arguments: dict) -> Any:
    """Validate ``arguments``, call the tool for ``worker``, return plain JSON data
    (datetimes as ISO text). Errors are ``DomainError``s (a Django ``ValidationError``
    from a model becomes one, naming its fields)."""
    tool = tool_get(name)
    args = tool_arguments(tool, arguments)
    try:
        result = tool.handler(worker, args)
    except DjangoValidationError as exc:
        fields = flatten_errors(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
        raise DomainError(_summary(fields), fields=fields, code="validation_error") from exc
    return json.loads(json.dumps(result, cls=JSONEncoder))


def openai_tools(names: list[str] | None = None) -> list[dict]:
    """The OpenAI function-calling manifest of the tools (all, or those named)."""
    tools = tool_list() if names is None else [tool_get(name) for name in names]
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": json_schema(tool.serializer),
            },
        }
        for tool in tools
    ]
