"""Parallel section updates against the real database lose no increment."""

import threading

import pytest
from django.db import connection

from tests.factories import ActiveMemoryFactory
from tiers.models import ActiveMemory
from tiers.services.active import active_memory_update_sections

THREADS = 8
UPDATES_PER_THREAD = 25


@pytest.mark.django_db(transaction=True)
def test_parallel_updates_count_every_update(worker):
    memory = ActiveMemoryFactory(worker=worker)
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def hammer(thread_no: int):
        try:
            barrier.wait()
            for i in range(UPDATES_PER_THREAD):
                active_memory_update_sections(
                    memory=memory,
                    sections={
                        "progress": f"thread {thread_no} step {i}",
                        "notes": f"{thread_no}/{i}",
                    },
                )
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=hammer, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    memory = ActiveMemory.objects.get(pk=memory.pk)
    assert memory.sections["progress"]["update_count"] == THREADS * UPDATES_PER_THREAD
    assert memory.sections["notes"]["update_count"] == THREADS * UPDATES_PER_THREAD
    assert memory.sections["objective"]["update_count"] == 0
    assert memory.sections["progress"]["content"].startswith("thread ")
