"""The database restarts while a migration sweep (``manage.py consolidate``) runs:
each section moves in one transaction with the reset of its count, so afterwards every
section is either migrated once (count 0, one shortterm memory, whole) or untouched
(count kept, no memory), and a rerun completes the work."""

import time

import pytest

from tests.faults._population import populate, section_state
from tests.faults.conftest import wait_for
from tests.faults.reconcile import reconcile

pytestmark = pytest.mark.slow

ACTIVE = 8  # x 5 sections


def _consistent(rows) -> tuple[int, int]:
    """Every section either migrated exactly once with its count reset, or not at all."""
    migrated = untouched = 0
    for memory_id, section, count, made in rows:
        assert made <= 1, f"section {memory_id}/{section} migrated {made} times"
        if made:
            assert count == 0, f"section {memory_id}/{section} migrated but counted {count}"
            migrated += 1
        else:
            assert count == 1, f"section {memory_id}/{section} lost its count ({count})"
            untouched += 1
    return migrated, untouched


def test_it_loses_and_doubles_nothing_when_the_database_restarts_mid_sweep(site, tmp_path):
    worker_id = populate(site, "db-restart", ACTIVE)["worker"]
    sweep = site.spawn(
        "manage.py", "consolidate", "--worker", "db-restart", log=tmp_path / "sweep.log"
    )
    count = "SELECT count(*) FROM tiers_shorttermmemory WHERE worker_id = %s"
    wait_for(lambda: site.scalar(count, [worker_id]) >= 3, timeout=60, what="3 migrated")
    started = time.monotonic()
    site.stop_db()  # pg_ctl stop -m fast: the sweep's connection is cut mid-transaction
    sweep.wait(timeout=60)
    assert sweep.returncode != 0 or "consolidated" in (tmp_path / "sweep.log").read_text()
    site.start_db()
    restart_s = time.monotonic() - started

    migrated, untouched = _consistent(section_state(site, worker_id))
    assert migrated >= 3 and untouched > 0, (migrated, untouched)
    with site.connect() as conn:
        reconcile(conn.cursor(), worker_id, memories=migrated)

    done = site.manage("consolidate", "--worker", "db-restart")
    assert "active memor" in done.stdout
    migrated, untouched = _consistent(section_state(site, worker_id))
    assert (migrated, untouched) == (ACTIVE * 5, 0)
    with site.connect() as conn:
        reconcile(conn.cursor(), worker_id, memories=ACTIVE * 5)
    print(f"database down and up again in {restart_s:.1f} s")
