import pytest

from consolidation.selectors.capacity import worker_capacities, workers_near_capacity
from tests.factories import TASK_TEMPLATE
from tiers.services.active import active_memory_create, active_memory_update_sections

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def limits(settings):
    settings.MEMORYHUB_MIGRATION = settings.MEMORYHUB_MIGRATION | {
        "min_update_count": 1,
        "capacity_updates": 10,
        "capacity_memories": 4,
    }


def _memory(worker, updates: int):
    memory = active_memory_create(
        worker=worker,
        title="Sprint",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "Ship"},
    )
    for n in range(updates):
        active_memory_update_sections(memory=memory, sections={"notes": f"note {n}"})
    return memory


def test_the_fuller_measure_gives_the_share(worker, other_worker):
    for _ in range(2):
        _memory(worker, 4)  # 8 of 10 updates, 2 of 4 memories
    _memory(other_worker, 1)
    capacities = worker_capacities()
    mine = capacities[worker.pk]
    assert (mine.pending_updates, mine.pending_memories) == (8, 2)
    assert mine.share == pytest.approx(0.8) and not mine.crossed
    assert capacities[other_worker.pk].share == pytest.approx(0.25)
    assert [c.worker_id for c in workers_near_capacity(share=0.8)] == [worker.pk]
    _memory(worker, 2)
    assert worker_capacities(worker_ids=[worker.pk])[worker.pk].crossed


def test_a_worker_with_nothing_pending_is_empty_not_missing(worker):
    empty = worker_capacities(worker_ids=[worker.pk])[worker.pk]
    assert (empty.pending_updates, empty.share, empty.crossed) == (0, 0.0, False)
