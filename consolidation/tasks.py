"""django-q2 tasks of consolidation. Each takes ids and is safe to run twice."""

from consolidation.models import ConsolidationRun
from consolidation.services.active_to_shortterm import migration_sweep
from consolidation.services.section_readings import chunk_readings_make, section_readings_make
from consolidation.services.shortterm_to_longterm import promotion_sweep, retention_sweep


def sweep_migrations(
    worker_id: int | None = None, trigger: str = ConsolidationRun.Trigger.SWEEP
) -> list[int]:
    return migration_sweep(worker_id=worker_id, trigger=trigger)


def sweep_promotions(
    worker_id: int | None = None, trigger: str = ConsolidationRun.Trigger.SWEEP
) -> list[int]:
    return promotion_sweep(worker_id=worker_id, trigger=trigger)


def sweep_retention(
    worker_id: int | None = None, trigger: str = ConsolidationRun.Trigger.SWEEP
) -> list[int]:
    return retention_sweep(worker_id=worker_id, trigger=trigger)


def read_sections(memory_id: int, section_ids: list[str] | None = None) -> int:
    return section_readings_make(memory_id=memory_id, section_ids=section_ids)


def read_chunks(chunk_ids: list[int]) -> int:
    return chunk_readings_make(chunk_ids=chunk_ids)
