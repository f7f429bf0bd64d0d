"""Consolidation from Active to Shortterm (called "migration" in the API and commands):
for each section updated often enough, merge it into the most similar chunk, record a
conflict for a human, or store it as a new memory. The write for one section is one
transaction, taken under the active memory's row lock after re-checking that the section
has not changed meanwhile; the count is reset only when the outcome was stored, so a crash
leaves the section to the next run."""

import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from consolidation.claims import has_kept_readings, read_ahead
from consolidation.decision import assess_candidate, claims_judged, decide
from consolidation.judge import llm_merge, use_llm
from consolidation.models import ConsolidationRun
from consolidation.review_queue import review_queue
from consolidation.selectors.capacity import worker_capacities
from consolidation.services.section_readings import section_reading
from graph.differences import graph_differences
from graph.extraction import get_extractor
from graph.extraction.base import Extraction
from graph.selectors.graph import chunks_extraction
from memoryhub.nlp import parse_many, parser_available, remember_stored, run_beside
from memoryhub.providers.llm import LLMError
from memoryhub.text import split_sentences
from tiers.active_templates import parse_template
from tiers.models import ActiveMemory, ShorttermChunk, UsageKind
from tiers.search import nearest_chunks
from tiers.selectors.shortterm import shortterm_chunk_parses
from tiers.services.active import active_section_reset_count
from tiers.services.shortterm import (
    shortterm_chunk_parses_keep,
    shortterm_chunks_update,
    shortterm_memory_create,
)
from tiers.services.usage import usage_record

logger = logging.getLogger(__name__)
CHUNK_FIGURES = (
    "chunk_id",
    "memory_id",
    "content",
    "similarity",
    "entity_overlap",
    "entity_containment",
    "relationship_overlap",
    "judge",
    "llm",
)


def merge_sentences(existing: str, incoming: str) -> str:
    """Sentence-level union: the existing sentences in order, then the incoming ones that
    are new (compared without case and punctuation)."""

    def key(sentence: str) -> str:
        return " ".join(
            "".join(ch for ch in sentence.lower() if ch.isalnum() or ch.isspace()).split()
        )

    kept = split_sentences(existing)
    seen = {key(s) for s in kept}
    added = [s for s in split_sentences(incoming) if key(s) not in seen and not seen.add(key(s))]
    return " ".join(kept + added)


def _candidates(worker_id: int, content: str, vector=None) -> list[dict]:
    """The worker's chunks most like the section (exact cosine; its ``vector`` when it was
    embedded before), above the candidate floor."""
    config = settings.MEMORYHUB_MIGRATION
    return [
        {
            "chunk_id": c["chunk_id"],
            "memory_id": c["memory_id"],
            "content": c["content"],
            "similarity": round(c["similarity"], 4),
        }
        for c in nearest_chunks(
            text=content, worker_id=worker_id, limit=config["candidates"], vector=vector
        )
        if c["similarity"] >= config["candidate_similarity"]
    ]


def _parse(content: str, found: list[dict]) -> None:
    """Parse the section and its candidates for the claim judge and the extractor: a
    candidate's kept parse is read back (1 ms) instead of parsed (10–35 ms), with what the
    judge read of it before (~4 ms of a long chunk); the rest are parsed in one batch with
    the section (six texts 37 → 22 ms on 2 cores)."""
    kept = shortterm_chunk_parses(chunk_ids=[c["chunk_id"] for c in found])
    unparsed = [c for c in found if not remember_stored(c["content"], kept.get(c["chunk_id"]))]
    parse_many([content, *(c["content"] for c in unparsed)])


def _keep_readings(judged: list[dict]) -> None:
    """Keep the parse of each judged candidate, with what the judge read of it, where none
    was kept with it: the next judgement of the chunk reads them back (once per chunk)."""
    unread = {c["chunk_id"]: c["content"] for c in judged if not has_kept_readings(c["content"])}
    for text in unread.values():
        read_ahead(text)  # read by the judgement already: from the cache
    if unread:
        shortterm_chunk_parses_keep(chunks=unread)


def _read(extractor, content: str, *, claims: bool):
    """The section's quick extraction, and what the claim judge reads of it alone."""
    graph = extractor.extract_quick(content)
    if claims:
        read_ahead(content)
    return graph


def _plan(memory: ActiveMemory, section_id: str, content: str) -> dict:
    """Decide, outside any transaction (embedding, extraction, similarity, LLM calls)."""
    config = settings.MEMORYHUB_MIGRATION
    extractor = get_extractor()
    # The section is parsed and extracted on one core while it is embedded on the other for
    # its candidates (a long section's 80 ms one after the other become ~55 on 2 cores),
    # then the candidates that have no kept parse are parsed. The decision reads the quick
    # extraction (types from the context, no name vectors); a merge or a conflict keeps
    # the whole one.
    # A section read when it was written (``section_readings``) is not read again: its
    # vector, parse, claims and graph come back from the database.
    claims = parser_available() and claims_judged(config)
    reading = section_reading(memory_id=memory.pk, section_id=section_id, content=content)
    if reading is not None:
        incoming_graph = reading["quick_graph"]
        found = _candidates(memory.worker_id, content, vector=reading["vector"])
    else:
        incoming_graph, found = run_beside(
            lambda: _read(extractor, content, claims=claims),
            lambda: _candidates(memory.worker_id, content),
        )
    if parser_available():
        _parse(content, found)
    # The candidates' graphs as stored (extracted when they were written), extracted anew
    # only for memories whose extraction failed or waits for the sweep.
    graphs = chunks_extraction(worker=memory.worker, chunk_ids=[c["chunk_id"] for c in found])
    candidates = []
    for candidate in found:
        if candidate["chunk_id"] not in graphs:
            graphs[candidate["chunk_id"]] = extractor.extract(candidate["content"])
        candidates.append(
            assess_candidate(
                content=content,
                incoming_graph=incoming_graph,
                candidate=candidate,
                existing_graph=graphs[candidate["chunk_id"]],
                config=config,
            )
        )
    if claims:
        _keep_readings(found)
    plan = decide(candidates, config)
    if reading is not None:
        incoming_graph = reading["graph"]
    elif extractor.has_quick_reading and plan["outcome"] in ("conflict", "merged"):
        incoming_graph = extractor.extract(content)  # the parse is kept: ~10 ms
    plan["incoming_graph"] = incoming_graph
    plan["read_when_written"] = reading is not None
    if plan["outcome"] == "conflict":
        existing = Extraction(
            entities=[e for c in plan["conflicting"] for e in graphs[c["chunk_id"]].entities],
            relationships=[
                r for c in plan["conflicting"] for r in graphs[c["chunk_id"]].relationships
            ],
        )
        plan["entity_differences"], plan["relationship_differences"] = graph_differences(
            incoming_graph, existing
        )
    if plan["outcome"] == "merged":
        target = plan["target"]
        plan["merged_text"], plan["merged_by"] = (
            merge_sentences(target["content"], content),
            "sentences",
        )
        if use_llm(config, "llm_merge"):
            try:
                plan["merged_text"], plan["merged_by"] = (
                    llm_merge(existing=target["content"], incoming=content),
                    "llm",
                )
            except LLMError as exc:
                logger.warning("LLM merge unavailable, merging sentences: %s", exc)
    return plan


def migrate_section(*, memory: ActiveMemory, section_id: str) -> dict:
    config = settings.MEMORYHUB_MIGRATION
    data = memory.sections.get(section_id) or {}
    content, count = data.get("content", ""), int(data.get("update_count", 0))
    base = {"active_memory_id": memory.pk, "section_id": section_id}
    if count < config["min_update_count"] or not content.strip():
        return base | {
            "outcome": "skipped",
            "detail": "not updated enough" if content.strip() else "empty",
        }
    plan = _plan(memory, section_id, content)
    names = {s.id: s.name for s in parse_template(memory.template_content).sections}
    with transaction.atomic():
        locked = ActiveMemory.objects.select_for_update().filter(pk=memory.pk).first()
        current = (locked.sections.get(section_id) or {}) if locked else {}
        if (
            locked is None
            or current.get("content") != content
            or int(current.get("update_count", 0)) < config["min_update_count"]
        ):
            return base | {"outcome": "skipped", "detail": "changed or migrated meanwhile"}
        if plan["outcome"] == "conflict":
            first = plan["conflicting"][0]
            conflict_id = review_queue().submit(
                worker=locked.worker,
                active_memory=locked,
                section_id=section_id,
                section_name=names.get(section_id, section_id),
                section_content=content,
                shortterm_memory_id=first["memory_id"],
                conflicting_chunks=[
                    {k: c[k] for k in CHUNK_FIGURES if k in c} for c in plan["conflicting"]
                ],
                reasons=[
                    r | {"chunk_id": c["chunk_id"]}
                    for c in plan["conflicting"]
                    for r in c["reasons"]
                ],
                entity_differences=plan["entity_differences"],
                relationship_differences=plan["relationship_differences"],
            )
            ids = {
                "conflict_id": conflict_id,
                "chunk_ids": [c["chunk_id"] for c in plan["conflicting"]],
            }
        elif plan["outcome"] == "merged":
            target = plan["target"]
            chunk = (
                ShorttermChunk.objects.select_related("memory")
                .filter(pk=target["chunk_id"])
                .first()
            )
            if chunk is None or chunk.content != target["content"]:
                return base | {"outcome": "skipped", "detail": "the chunk changed meanwhile"}
            shortterm_chunks_update(
                memory=chunk.memory,
                updates=[{"chunk_id": chunk.pk, "new_content": plan["merged_text"]}],
                confirmed=plan["incoming_graph"],
                grown=plan["merged_by"] == "sentences",  # the chunk's sentences all kept
            )
            usage_record(
                worker=locked.worker,
                memory_id=chunk.memory_id,
                chunk_id=chunk.pk,
                kind=UsageKind.REINFORCE,
                actor="consolidation",
                detail=f"section {section_id} of active memory {locked.pk} merged",
                allow_internal=True,
            )
            ids = {
                "chunk_id": chunk.pk,
                "shortterm_memory_id": chunk.memory_id,
                "similarity": target["similarity"],
                "merged_by": plan["merged_by"],
            }
        else:
            created = shortterm_memory_create(
                worker=locked.worker,
                title=f"{locked.title} — {names.get(section_id, section_id)}"[:500],
                content=content,
                metadata={"active_memory_id": locked.pk, "section_id": section_id},
            )
            ids = {"shortterm_memory_id": created.pk}
            if plan.get("detail"):
                ids["detail"] = plan["detail"]
        active_section_reset_count(memory_id=locked.pk, section_id=section_id)
    return base | {
        "outcome": plan["outcome"],
        "ids": ids,
        "read_when_written": plan["read_when_written"],
    }


def migrate_active_memory(*, memory: ActiveMemory, trigger: str) -> ConsolidationRun:
    """Migrate every eligible section of one active memory and record the run."""
    started = time.perf_counter()
    run = ConsolidationRun.objects.create(worker_id=memory.worker_id, trigger=trigger)
    outcomes = []
    for section_id in list(memory.sections):
        section_started = time.perf_counter()
        try:
            outcome = migrate_section(memory=memory, section_id=section_id)
        except (
            Exception
        ) as exc:  # one failing section (provider down, bug) must not stop the others
            logger.exception(
                "migration of active memory %s section %s failed", memory.pk, section_id
            )
            outcome = {
                "active_memory_id": memory.pk,
                "section_id": section_id,
                "outcome": "error",
                "detail": f"{type(exc).__name__}: {exc}"[:500],
            }
        outcomes.append(outcome | {"ms": round((time.perf_counter() - section_started) * 1000, 2)})
    run.outcomes = outcomes
    run.finished_at = timezone.now()
    run.duration_ms = (time.perf_counter() - started) * 1000
    run.save(update_fields=["outcomes", "finished_at", "duration_ms"])
    return run


def migration_sweep(
    *, worker_id: int | None = None, trigger: str = ConsolidationRun.Trigger.SWEEP
) -> list[int]:
    """Migrate every active memory that has a section updated often enough (all workers,
    or one). Returns the ConsolidationRun ids. Safe to run twice, and beside another sweep:
    each section is re-checked under its memory's row lock."""
    min_updates = settings.MEMORYHUB_MIGRATION["min_update_count"]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT DISTINCT m.id FROM {ActiveMemory._meta.db_table} m, jsonb_each(m.sections) s
                WHERE (s.value ->> 'update_count')::int >= %s """
            """AND (%s::bigint IS NULL OR m.worker_id = %s)
                ORDER BY m.id""",
            [min_updates, worker_id, worker_id],
        )
        ids = [row[0] for row in cursor.fetchall()]
    runs = []
    for memory in ActiveMemory.objects.filter(pk__in=ids).order_by("pk"):
        runs.append(migrate_active_memory(memory=memory, trigger=trigger).pk)
    return runs


def migration_sweep_enqueue(*, worker_id: int, trigger: str = ConsolidationRun.Trigger.API) -> str:
    """Queue a sweep of one worker on the task cluster; returns the task id."""
    from django_q.tasks import async_task

    return async_task("consolidation.tasks.sweep_migrations", worker_id, trigger)


def migration_capacity_check(*, worker_id: int) -> str | None:
    """The capacity trigger: queue a sweep of the worker when the update counts of its
    active memory add up to ``capacity_updates`` or ``capacity_memories`` of its active
    memories have sections waiting. At most one queued sweep per worker and cool-down
    (the sweep itself is safe to run twice). Returns the task id when one was queued."""
    config = settings.MEMORYHUB_MIGRATION
    if not config["capacity_updates"] and not config["capacity_memories"]:
        return None
    capacity = worker_capacities(worker_ids=[worker_id])[worker_id]
    updates, memories = capacity.pending_updates, capacity.pending_memories
    if not capacity.crossed or not cache.add(
        f"migration-capacity:{worker_id}", 1, timeout=config["capacity_cooldown"]
    ):
        return None
    logger.info(
        "worker %s crossed the migration capacity (%s updates, %s memories): sweep queued",
        worker_id,
        updates,
        memories,
    )
    return migration_sweep_enqueue(worker_id=worker_id, trigger=ConsolidationRun.Trigger.CAPACITY)


def capacity_check_on_update(*, worker_id: int, **_) -> str | None:
    """``tiers.signals.active_sections_updated``: an update of the worker's active memory
    committed; queue a sweep if it crossed the capacity."""
    return migration_capacity_check(worker_id=worker_id)
