"""Reads of the Active tier."""

from django.db.models import QuerySet

from memoryhub.errors import DomainError, NotFoundError
from memoryhub.models import Worker
from tiers.active_templates import parse_template
from tiers.models import ActiveMemory, ActiveSectionReading


def active_memory_list(*, worker: Worker) -> QuerySet[ActiveMemory]:
    return ActiveMemory.objects.filter(worker=worker)


def active_memory_get(*, worker: Worker, memory_id) -> ActiveMemory:
    try:
        return ActiveMemory.objects.get(worker=worker, pk=int(memory_id))
    except (ActiveMemory.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError(f"active memory {memory_id} not found") from exc


def active_memories_get_many(*, worker: Worker, ids: list[int], max_ids: int) -> list[ActiveMemory]:
    """``get_detailed_active_memories``: the memories in the order asked. An id that is
    not this worker's is a 404 naming it; no partial answer."""
    if not ids:
        raise DomainError("ids must hold at least one id", fields={"ids": "must not be empty"})
    if len(ids) > max_ids:
        raise DomainError(
            f"at most {max_ids} ids per call", fields={"ids": f"more than {max_ids} ids"}
        )
    found = {m.pk: m for m in ActiveMemory.objects.filter(worker=worker, pk__in=ids)}
    missing = [i for i in ids if i not in found]
    if missing:
        listed = ", ".join(map(str, missing))
        raise NotFoundError(
            f"active memor{'y' if len(missing) == 1 else 'ies'} not found: {listed}",
            fields={"ids": f"not found: {listed}"},
        )
    return [found[i] for i in dict.fromkeys(ids)]


def active_memory_sections_view(memory: ActiveMemory) -> list[dict]:
    """Sections in template order with their display names, for pages and summaries.

    (JSONB does not keep key order, so the template gives it.)
    """
    try:
        specs = {s.id: s for s in parse_template(memory.template_content).sections}
    except DomainError:
        specs = {}
    order = [sid for sid in specs if sid in memory.sections]
    order += [sid for sid in memory.sections if sid not in specs]
    rows = []
    for section_id in order:
        data = memory.sections[section_id]
        spec = specs.get(section_id)
        rows.append(
            {
                "id": section_id,
                "name": spec.name if spec else section_id,
                "required": bool(spec and spec.required),
                "content": data.get("content", ""),
                "update_count": int(data.get("update_count", 0)),
            }
        )
    return rows


def active_section_reading(
    *, memory_id: int, section_id: str, content: str, version: str
) -> dict | None:
    """The reading kept of a section (``embedding``, ``parse``, ``quick_graph``, ``graph``)
    when it was made from ``content`` by this ``version`` of the readers; None otherwise
    (not made yet, or made of an earlier content or by other models)."""
    row = (
        ActiveSectionReading.objects.filter(
            memory_id=memory_id,
            section_id=section_id,
            content_hash=ActiveSectionReading.hash_of(content),
            version=version,
        )
        .values("embedding", "parse", "quick_graph", "graph")
        .first()
    )
    if row is None:
        return None
    return row | {"parse": bytes(row["parse"])}


def active_section_reading_hashes(*, memory_id: int, version: str) -> dict[str, str]:
    """``{section_id: content_hash}`` of the readings this ``version`` made of a memory."""
    return dict(
        ActiveSectionReading.objects.filter(memory_id=memory_id, version=version).values_list(
            "section_id", "content_hash"
        )
    )
