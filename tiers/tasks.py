"""django-q2 tasks of the tiers app. Each takes ids and is safe to run twice."""

from tiers.models import MigrationRun
from tiers.services.migration import migration_sweep
from tiers.services.maintenance import shortterm_tables_vacuum


def sweep_migrations(worker_id: int | None = None, trigger: str = MigrationRun.Trigger.SWEEP) -> list[int]:
    return migration_sweep(worker_id=worker_id, trigger=trigger)


def vacuum_shortterm_tables(deleted: int = 0) -> dict:
    return shortterm_tables_vacuum(deleted=deleted)
