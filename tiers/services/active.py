"""Writes to the Active tier."""

import json

from django.conf import settings
from django.db import connection, transaction

from memoryhub.errors import DomainError, PayloadTooLargeError
from memoryhub.models import Worker
from memoryhub.providers.embeddings import vector_literal
from memoryhub.validation import validate_metadata
from tiers.active_templates import Template, parse_template
from tiers.models import ActiveMemory, ActiveSectionReading
from tiers.signals import active_sections_updated, announce_after_commit


def _validate_content(field: str, content) -> str:
    if not isinstance(content, str):
        raise DomainError(
            f"{field} must be a string of markdown, not {type(content).__name__}",
            fields={field: "must be a string"},
        )
    limit = settings.MEMORYHUB_ACTIVE["max_section_bytes"]
    size = len(content.encode())
    if size > limit:
        raise PayloadTooLargeError(
            f"{field} is {size} bytes; a section may hold at most {limit} bytes",
            fields={field: f"larger than {limit} bytes"},
        )
    return content


def _resolve_sections(template: Template, updates, field: str) -> dict[str, str]:
    """Map caller keys (ids or names) to section ids; unknown names are one error."""
    if not isinstance(updates, dict):
        raise DomainError(
            f"{field} must be an object of section → content", fields={field: "must be an object"}
        )
    resolved: dict[str, str] = {}
    unknown: list[str] = []
    for key, content in updates.items():
        section_id = template.resolve(str(key))
        if section_id is None:
            unknown.append(str(key))
            continue
        if section_id in resolved:
            raise DomainError(
                f"section {section_id!r} is given twice in {field}",
                fields={f"{field}.{key}": "given twice (by id and by name)"},
            )
        resolved[section_id] = _validate_content(f"{field}.{key}", content)
    if unknown:
        known = ", ".join(template.section_ids)
        raise DomainError(
            f"unknown section(s) {', '.join(map(repr, unknown))}; the template defines: {known}",
            fields={f"{field}.{name}": "no such section in the template" for name in unknown},
            code="unknown_section",
        )
    return resolved


def _missing_required(template: Template, contents: dict[str, str]) -> list[str]:
    return [s.id for s in template.sections if s.required and not contents.get(s.id, "").strip()]


@transaction.atomic
def active_memory_create(
    *,
    worker: Worker,
    title: str,
    template_yaml: str,
    description: str = "",
    initial_sections: dict | None = None,
    metadata: dict | None = None,
) -> ActiveMemory:
    template = parse_template(template_yaml)
    contents = _resolve_sections(template, initial_sections or {}, "initial_sections")
    missing = _missing_required(template, contents)
    if missing:
        raise DomainError(
            f"required section(s) left out: {', '.join(missing)}",
            fields={f"initial_sections.{name}": "required by the template" for name in missing},
            code="missing_required_section",
        )
    memory = ActiveMemory(
        worker=worker,
        title=title,
        description=description or "",
        template_content=template_yaml,
        sections={
            sid: {"content": contents.get(sid, ""), "update_count": 0}
            for sid in template.section_ids
        },
        metadata=validate_metadata(metadata),
    )
    memory.full_clean()
    memory.save()
    return memory


def _increment_sections(memory_id: int, updates: dict[str, str]) -> None:
    """Replace contents and add one to each count in a single UPDATE: the database does
    the arithmetic on the current row, so concurrent updates never lose an increment."""
    pieces, params = [], []
    for section_id, content in updates.items():
        pieces.append(
            "%s::text, jsonb_build_object('content', %s::text, 'update_count', "
            "COALESCE((sections -> %s::text ->> 'update_count')::int, 0) + 1)"
        )
        params += [section_id, content, section_id]
    table = ActiveMemory._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET sections = sections || jsonb_build_object({', '.join(pieces)}), "
            "updated_at = now() WHERE id = %s",
            [*params, memory_id],
        )


def _announce_after_commit(*, worker_id: int, memory_id: int, section_ids: list[str]) -> None:
    """Once the update is committed, tell the layers above (``tiers.signals``):
    consolidation queues a sweep when the worker's active memory crossed its capacity, and
    the reading of the written sections."""
    announce_after_commit(
        active_sections_updated,
        sender=ActiveMemory,
        after=f"the update of active memory {memory_id}",
        worker_id=worker_id,
        memory_id=memory_id,
        section_ids=section_ids,
    )


def _locked(memory: ActiveMemory) -> ActiveMemory:
    return ActiveMemory.objects.select_for_update().get(pk=memory.pk)


@transaction.atomic
def active_memory_update_sections(*, memory: ActiveMemory, sections: dict) -> ActiveMemory:
    """Replace the content of the given sections, each count +1. All or nothing."""
    if not sections:
        raise DomainError(
            "sections must name at least one section", fields={"sections": "must not be empty"}
        )
    current = _locked(memory)
    template = parse_template(current.template_content)
    updates = _resolve_sections(template, sections, "sections")
    contents = {sid: data.get("content", "") for sid, data in current.sections.items()} | updates
    missing = [sid for sid in _missing_required(template, contents) if sid in updates]
    if missing:
        raise DomainError(
            f"required section(s) cannot be emptied: {', '.join(missing)}",
            fields={f"sections.{sid}": "required by the template" for sid in missing},
            code="missing_required_section",
        )
    _increment_sections(current.pk, updates)
    current.refresh_from_db()
    _announce_after_commit(
        worker_id=current.worker_id, memory_id=current.pk, section_ids=list(updates)
    )
    return current


@transaction.atomic
def active_memory_update(
    *,
    memory: ActiveMemory,
    title: str | None = None,
    description: str | None = None,
    template_yaml: str | None = None,
    metadata: dict | None = None,
    sections: dict | None = None,
) -> ActiveMemory:
    """The update agent's ``update_active_memory``: any of title, description,
    template, metadata and section contents, in one transaction.

    A new template keeps the content and counts of the sections it still defines and
    adds empty ones for new ids; it is refused if it would drop a section that holds
    content, or leave a required section empty.
    """
    current = _locked(memory)
    if title is not None:
        current.title = title
    if description is not None:
        current.description = description
    if metadata is not None:
        current.metadata = validate_metadata(metadata)

    template = parse_template(
        template_yaml if template_yaml is not None else current.template_content
    )
    if template_yaml is not None:
        dropped = [
            sid
            for sid, data in current.sections.items()
            if sid not in template.section_ids and data.get("content", "").strip()
        ]
        if dropped:
            raise DomainError(
                f"the new template drops section(s) that hold content: {', '.join(dropped)}; "
                "keep them in the template or empty them first",
                fields={"template_content": f"drops sections with content: {', '.join(dropped)}"},
                code="section_would_be_lost",
            )
        current.template_content = template_yaml
        current.sections = {
            sid: current.sections.get(sid, {"content": "", "update_count": 0})
            for sid in template.section_ids
        }

    updates = _resolve_sections(template, sections, "sections") if sections else {}
    contents = {sid: data.get("content", "") for sid, data in current.sections.items()} | updates
    missing = _missing_required(template, contents)
    if missing and (template_yaml is not None or any(sid in updates for sid in missing)):
        raise DomainError(
            f"required section(s) left empty: {', '.join(missing)}",
            fields={f"sections.{sid}": "required by the template" for sid in missing},
            code="missing_required_section",
        )
    current.full_clean()
    current.save()
    if updates:
        _increment_sections(current.pk, updates)
        current.refresh_from_db()
        _announce_after_commit(
            worker_id=current.worker_id, memory_id=current.pk, section_ids=list(updates)
        )
    return current


@transaction.atomic
def active_memory_delete(*, memory: ActiveMemory) -> None:
    memory.delete()


def active_section_reset_count(
    *, memory_id: int, section_id: str, only_if_content: str | None = None
) -> bool:
    """Set a section's ``update_count`` to 0 once its content has been migrated (or a
    conflict about it decided). With ``only_if_content``, only while the section still
    holds that content. Returns whether a row changed. In the caller's transaction."""
    condition, params = "", []
    if only_if_content is not None:
        condition, params = " AND sections -> %s ->> 'content' = %s", [section_id, only_if_content]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {ActiveMemory._meta.db_table} "
            "SET sections = jsonb_set(sections, ARRAY[%s, 'update_count'], "
            f"'0'::jsonb) WHERE id = %s{condition}",
            [section_id, memory_id, *params],
        )
        return cursor.rowcount > 0


def active_section_readings_keep(*, memory_id: int, readings: list[dict]) -> int:
    """Keep the reading of each section (``{section_id, content, version, embedding, parse,
    quick_graph, graph}``), replacing the one before, only while the section still holds
    that content (written again meanwhile: its own reading follows). One statement;
    returns how many were kept."""
    if not readings:
        return 0
    table, active = ActiveSectionReading._meta.db_table, ActiveMemory._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""INSERT INTO {table} (memory_id, section_id, content_hash, version, embedding,
                    parse, quick_graph, graph, made_at)
                SELECT m.id, u.section_id, u.content_hash, u.version, u.embedding::vector,
                    u.parse, u.quick_graph::jsonb, u.graph::jsonb, now()
                FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::text[],
                    %s::bytea[], %s::text[], %s::text[])
                    AS u(section_id, content, content_hash, version, embedding, parse,
                         quick_graph, graph)
                JOIN {active} m ON m.id = %s
                    AND m.sections -> u.section_id ->> 'content' = u.content
                ON CONFLICT (memory_id, section_id) DO UPDATE SET
                    content_hash = EXCLUDED.content_hash, version = EXCLUDED.version,
                    embedding = EXCLUDED.embedding, parse = EXCLUDED.parse,
                    quick_graph = EXCLUDED.quick_graph, graph = EXCLUDED.graph,
                    made_at = EXCLUDED.made_at""",
            [
                [r["section_id"] for r in readings],
                [r["content"] for r in readings],
                [ActiveSectionReading.hash_of(r["content"]) for r in readings],
                [r["version"] for r in readings],
                [vector_literal(r["embedding"]) for r in readings],
                [r["parse"] for r in readings],
                [json.dumps(r["quick_graph"]) for r in readings],
                [json.dumps(r["graph"]) for r in readings],
                memory_id,
            ],
        )
        return cursor.rowcount
