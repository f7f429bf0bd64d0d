"""django-q2 tasks of the graph app. Each takes ids, re-fetches, and is safe to run twice."""

from graph.services.extraction import extraction_sweep, graph_reextract, memory_extract_graph
from memoryhub.models import Worker


def extract_memory_graph(memory_id: int) -> str:
    return memory_extract_graph(memory_id=memory_id)


def sweep_extractions() -> dict:
    return extraction_sweep()


def reextract_worker_graph(worker_id: int, extractor_name: str | None = None) -> dict | None:
    """Re-extract a worker's whole graph (``graph_reextract``); a deleted worker: nothing."""
    worker = Worker.objects.filter(pk=worker_id).first()
    if worker is None:
        return None
    return graph_reextract(worker=worker, extractor_name=extractor_name)


def drain_graph_outbox() -> dict:
    from graph.projection.sync import graph_outbox_drain

    return graph_outbox_drain()
