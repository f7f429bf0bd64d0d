"""The task cluster is killed (kill -9, the whole process group) while a migration
sweep runs: the transaction in flight rolls back, the ORM broker hands the task out
again once its lease (``MEMORYHUB_Q_RETRY``) runs out, and the restarted cluster
completes it: every section migrated exactly once, the task's result written once."""

import pytest

from tests.faults._population import populate, section_state
from tests.faults.conftest import wait_for
from tests.faults.reconcile import reconcile

pytestmark = pytest.mark.slow

ACTIVE = 8
# The task's time limit leaves a cold cluster on a fresh install (models loaded, modules
# compiled on first use) time to be killed mid-sweep, and the retried sweep time to finish;
# the lease just outlives it.
LEASE = {"MEMORYHUB_Q_TIMEOUT": "30", "MEMORYHUB_Q_RETRY": "31", "MEMORYHUB_Q_WORKERS": "1"}
ENQUEUE = """
from django_q.tasks import async_task
print(json.dumps(async_task("consolidation.tasks.sweep_migrations", WORKER, "sweep")))
"""


def test_a_killed_cluster_leaves_the_task_to_be_retried_and_done_once(site, tmp_path):
    worker_id = populate(site, "qcluster-kill", ACTIVE)["worker"]
    task_id = site.python(f"WORKER = {worker_id}\n" + ENQUEUE)
    cluster = site.spawn("manage.py", "qcluster", log=tmp_path / "q1.log", **LEASE)
    made = "SELECT count(*) FROM tiers_shorttermmemory WHERE worker_id = %s"
    wait_for(lambda: site.scalar(made, [worker_id]) >= 3, timeout=60, what="the sweep to run")
    site.kill(cluster)  # SIGKILL to the sentinel, its workers, pusher and monitor
    before = site.scalar(made, [worker_id])
    assert before < ACTIVE * 5, "the sweep finished before the kill: nothing was tested"
    assert site.scalar("SELECT count(*) FROM django_q_task WHERE id = %s", [task_id]) == 0

    site.spawn("manage.py", "qcluster", log=tmp_path / "q2.log", **LEASE)
    done = "SELECT count(*) FROM django_q_task WHERE id = %s"
    wait_for(lambda: site.scalar(done, [task_id]), timeout=150, what="the task to be retried")
    # the broker acknowledges (deletes) the queued copy just after the result is saved
    queued = "SELECT count(*) FROM django_q_ormq"
    wait_for(lambda: site.scalar(queued) == 0, timeout=30, what="the task to be acknowledged")
    with site.connect() as conn:
        rows = conn.execute(
            "SELECT success, attempt_count FROM django_q_task WHERE id = %s", [task_id]
        ).fetchall()
    assert len(rows) == 1 and rows[0][0] is True, rows
    state = section_state(site, worker_id)
    assert all(made == 1 and count == 0 for _, _, count, made in state), state
    with site.connect() as conn:
        reconcile(conn.cursor(), worker_id, memories=ACTIVE * 5)
