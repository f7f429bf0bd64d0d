"""How full each worker's active memory is, measured against the capacity trigger of
consolidation (``MEMORYHUB_MIGRATION_CAPACITY_UPDATES`` / ``_CAPACITY_MEMORIES``): the
pending section updates and the active memories that have some."""

from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from tiers.models import ActiveMemory


@dataclass(frozen=True)
class Capacity:
    worker_id: int
    pending_updates: int  # update counts of sections at or above min_update_count
    pending_memories: int  # active memories with such a section
    updates_limit: int  # 0: that trigger is off
    memories_limit: int

    @property
    def share(self) -> float:
        """The fuller of the two measures, 0 to 1 and beyond (1: a sweep is due)."""
        shares = [self.pending_updates / self.updates_limit] if self.updates_limit else []
        shares += [self.pending_memories / self.memories_limit] if self.memories_limit else []
        return max(shares, default=0.0)

    @property
    def crossed(self) -> bool:
        return bool(self.updates_limit or self.memories_limit) and self.share >= 1.0


def worker_capacities(*, worker_ids: list[int] | None = None) -> dict[int, Capacity]:
    """Every worker with pending updates (or the ones asked for), one query."""
    config = settings.MEMORYHUB_MIGRATION
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT m.worker_id, COALESCE(SUM((s.value ->> 'update_count')::int), 0),
                       COUNT(DISTINCT m.id)
                FROM {ActiveMemory._meta.db_table} m, jsonb_each(m.sections) s
                WHERE (s.value ->> 'update_count')::int >= %s
                  AND (%s::bigint[] IS NULL OR m.worker_id = ANY(%s::bigint[]))
                GROUP BY m.worker_id""",
            [config["min_update_count"], worker_ids, worker_ids],
        )
        rows = {row[0]: row for row in cursor.fetchall()}
    ids = worker_ids if worker_ids is not None else sorted(rows)
    return {
        worker_id: Capacity(
            worker_id=worker_id,
            pending_updates=int(rows[worker_id][1]) if worker_id in rows else 0,
            pending_memories=int(rows[worker_id][2]) if worker_id in rows else 0,
            updates_limit=int(config["capacity_updates"] or 0),
            memories_limit=int(config["capacity_memories"] or 0),
        )
        for worker_id in ids
    }


def workers_near_capacity(*, share: float = 0.8) -> list[Capacity]:
    """Workers whose active memory is at least ``share`` full, fullest first."""
    near = [c for c in worker_capacities().values() if c.share >= share]
    return sorted(near, key=lambda c: (-c.share, c.worker_id))
