"""django-q2 tasks of the graph app. Each takes ids, re-fetches, and is safe to run twice."""

from graph.services.extraction import extraction_sweep, memory_extract_graph


def extract_memory_graph(memory_id: int) -> str:
    return memory_extract_graph(memory_id=memory_id)


def sweep_extractions() -> dict:
    return extraction_sweep()


def drain_graph_outbox() -> dict:
    from graph.projection.sync import graph_outbox_drain

    return graph_outbox_drain()
