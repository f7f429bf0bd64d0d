"""The graph's implementation of the shortterm tier's port (``tiers.memory_graph``),
plugged in by ``GraphConfig.ready``: extraction, storage in the memory's transaction (or,
in background mode, a task queued for after it), the Neo4j outbox on delete, and the graph
of memories and chunks for reads."""

from graph.projection.outbox import outbox_record_memory
from graph.selectors.graph import chunks_graph, longterm_chunks_graph, memories_graph
from graph.services.extraction import (
    extract,
    extraction_deferred,
    graph_apply_extraction,
    memory_extraction_defer,
)

# What ``read`` returns in background mode: nothing extracted yet, ``store`` queues it.
DEFERRED = object()


class StoredMemoryGraph:
    def __init__(self, *, enqueue: bool = True):
        # False: background mode marks memories pending without queueing their task (they
        # wait for the sweep); for benchmarks that time the write path alone.
        self.enqueue = enqueue

    def read(self, text: str):
        if extraction_deferred():
            return DEFERRED, ""
        return extract(text)

    def store(self, *, memory, reading, error: str, confirmed=None, added: bool = False) -> None:
        if reading is DEFERRED:
            memory_extraction_defer(memory=memory, confirmed=confirmed, enqueue=self.enqueue)
        else:
            graph_apply_extraction(
                memory=memory, extraction=reading, error=error, confirmed=confirmed, added=added
            )

    def forget(self, *, memory_id: int) -> None:
        outbox_record_memory(memory_id=memory_id)

    def of_chunks(self, *, worker, chunk_ids: list[int]) -> dict[int, dict]:
        return chunks_graph(worker=worker, chunk_ids=chunk_ids)

    def of_memories(self, *, worker, memory_ids: list[int]) -> dict[int, dict]:
        return memories_graph(worker=worker, memory_ids=memory_ids)

    def of_longterm_chunks(self, *, worker, chunk_ids: list[int]) -> dict[int, dict]:
        return longterm_chunks_graph(worker=worker, chunk_ids=chunk_ids)
