"""Active → Shortterm migration (issue 5): for each section updated often enough, merge
it into the most similar chunk, record a conflict for a human, or store it as a new
memory. The write for one section is one transaction, taken under the active memory's row
lock after re-checking that the section has not changed meanwhile; the count is reset only
when the outcome was stored, so a crash leaves the section to the next run."""

import time

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from graph.extraction import get_extractor
from memoryhub.providers.embeddings import get_embedder, vector_literal
from review.services.conflicts import conflict_create
from tiers.active_templates import parse_template
from tiers.chunking import split_sentences
from tiers.conflict_check import check_conflict, entity_overlap
from tiers.models import ActiveMemory, MigrationRun, ShorttermChunk
from tiers.services.active import active_section_reset_count as _reset_count
from tiers.services.shortterm import shortterm_chunks_update, shortterm_memory_create


def merge_sentences(existing: str, incoming: str) -> str:
    """Sentence-level union: the existing sentences in order, then the incoming ones that
    are new (compared without case and punctuation)."""
    def key(sentence: str) -> str:
        return " ".join("".join(ch for ch in sentence.lower() if ch.isalnum() or ch.isspace()).split())

    kept = split_sentences(existing)
    seen = {key(s) for s in kept}
    added = [s for s in split_sentences(incoming) if key(s) not in seen and not seen.add(key(s))]
    return " ".join(kept + added)


def _candidates(worker_id: int, content: str) -> list[dict]:
    config = settings.MEMORYHUB_MIGRATION
    vector = vector_literal(get_embedder().embed_documents([content])[0])
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT id, memory_id, content, 1 - (embedding <=> %s::vector) AS similarity
                FROM {ShorttermChunk._meta.db_table}
                WHERE worker_id = %s AND embedding IS NOT NULL
                ORDER BY (embedding <=> %s::vector) + 0 LIMIT %s""",  # + 0: exact, no HNSW
            [vector, worker_id, vector, config["candidates"]],
        )
        rows = cursor.fetchall()
    return [{"chunk_id": r[0], "memory_id": r[1], "content": r[2], "similarity": float(r[3])}
            for r in rows if r[3] >= config["candidate_similarity"]]


def _plan(memory: ActiveMemory, section_id: str, content: str) -> dict:
    """Decide, outside any transaction (embedding, extraction, similarity)."""
    config = settings.MEMORYHUB_MIGRATION
    extractor = get_extractor()
    incoming_graph = extractor.extract(content)
    candidates = _candidates(memory.worker_id, content)
    conflicting = []
    for candidate in candidates:
        existing_graph = extractor.extract(candidate["content"])
        candidate["entity_overlap"] = round(entity_overlap(incoming_graph, existing_graph), 3)
        reasons = check_conflict(
            incoming=content, existing=candidate["content"], incoming_graph=incoming_graph,
            existing_graph=existing_graph, similarity=candidate["similarity"],
            high_similarity=config["high_similarity"], min_entity_overlap=config["min_entity_overlap"],
        )
        if reasons:
            conflicting.append(candidate | {"reasons": reasons})
    if conflicting:
        return {"outcome": "conflict", "conflicting": conflicting}
    if candidates:
        return {"outcome": "merged", "target": candidates[0]}
    return {"outcome": "created"}


def migrate_section(*, memory: ActiveMemory, section_id: str) -> dict:
    config = settings.MEMORYHUB_MIGRATION
    data = memory.sections.get(section_id) or {}
    content, count = data.get("content", ""), int(data.get("update_count", 0))
    base = {"active_memory_id": memory.pk, "section_id": section_id}
    if count < config["min_update_count"] or not content.strip():
        return base | {"outcome": "skipped", "detail": "not updated enough" if content.strip() else "empty"}
    plan = _plan(memory, section_id, content)
    names = {s.id: s.name for s in parse_template(memory.template_content).sections}
    with transaction.atomic():
        locked = ActiveMemory.objects.select_for_update().filter(pk=memory.pk).first()
        current = (locked.sections.get(section_id) or {}) if locked else {}
        if locked is None or current.get("content") != content or int(current.get("update_count", 0)) < config["min_update_count"]:
            return base | {"outcome": "skipped", "detail": "changed or migrated meanwhile"}
        if plan["outcome"] == "conflict":
            first = plan["conflicting"][0]
            conflict = conflict_create(
                worker=locked.worker, active_memory=locked, section_id=section_id,
                section_name=names.get(section_id, section_id), section_content=content,
                shortterm_memory_id=first["memory_id"],
                conflicting_chunks=[{k: c[k] for k in ("chunk_id", "memory_id", "content", "similarity", "entity_overlap")}
                                    for c in plan["conflicting"]],
                reasons=[r | {"chunk_id": c["chunk_id"]} for c in plan["conflicting"] for r in c["reasons"]],
            )
            ids = {"conflict_id": conflict.pk, "chunk_ids": [c["chunk_id"] for c in plan["conflicting"]]}
        elif plan["outcome"] == "merged":
            target = plan["target"]
            chunk = ShorttermChunk.objects.select_related("memory").filter(pk=target["chunk_id"]).first()
            if chunk is None or chunk.content != target["content"]:
                return base | {"outcome": "skipped", "detail": "the chunk changed meanwhile"}
            shortterm_chunks_update(memory=chunk.memory, updates=[
                {"chunk_id": chunk.pk, "new_content": merge_sentences(chunk.content, content)}])
            ids = {"chunk_id": chunk.pk, "shortterm_memory_id": chunk.memory_id, "similarity": target["similarity"]}
        else:
            created = shortterm_memory_create(
                worker=locked.worker, title=f"{locked.title} — {names.get(section_id, section_id)}"[:500],
                content=content, metadata={"active_memory_id": locked.pk, "section_id": section_id},
            )
            ids = {"shortterm_memory_id": created.pk}
        _reset_count(memory_id=locked.pk, section_id=section_id)
    return base | {"outcome": plan["outcome"], "ids": ids}


def migrate_active_memory(*, memory: ActiveMemory, trigger: str) -> MigrationRun:
    """Migrate every eligible section of one active memory and record the run."""
    started = time.perf_counter()
    run = MigrationRun.objects.create(worker_id=memory.worker_id, trigger=trigger)
    outcomes = []
    for section_id in list(memory.sections):
        outcomes.append(migrate_section(memory=memory, section_id=section_id))
    run.outcomes = outcomes
    run.finished_at = timezone.now()
    run.duration_ms = (time.perf_counter() - started) * 1000
    run.save(update_fields=["outcomes", "finished_at", "duration_ms"])
    return run


def migration_sweep(*, worker_id: int | None = None, trigger: str = MigrationRun.Trigger.SWEEP) -> list[int]:
    """Migrate every active memory that has a section updated often enough (all workers,
    or one). Returns the MigrationRun ids. Safe to run twice, and beside another sweep:
    each section is re-checked under its memory's row lock."""
    min_updates = settings.MEMORYHUB_MIGRATION["min_update_count"]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT DISTINCT m.id FROM {ActiveMemory._meta.db_table} m, jsonb_each(m.sections) s
                WHERE (s.value ->> 'update_count')::int >= %s AND (%s::bigint IS NULL OR m.worker_id = %s)
                ORDER BY m.id""",
            [min_updates, worker_id, worker_id],
        )
        ids = [row[0] for row in cursor.fetchall()]
    runs = []
    for memory in ActiveMemory.objects.filter(pk__in=ids).order_by("pk"):
        runs.append(migrate_active_memory(memory=memory, trigger=trigger).pk)
    return runs


def migration_sweep_enqueue(*, worker_id: int) -> str:
    """Queue a sweep of one worker on the task cluster; returns the task id."""
    from django_q.tasks import async_task

    return async_task("tiers.tasks.sweep_migrations", worker_id, MigrationRun.Trigger.API)
