"""django-q2 tasks of the tiers app. Each takes ids and is safe to run twice."""

from tiers.services.maintenance import shortterm_tables_vacuum


def vacuum_shortterm_tables(deleted: int = 0) -> dict:
    return shortterm_tables_vacuum(deleted=deleted)
