"""What entity extraction costs an import (``manage.py bench_import``).

The same LoCoMo dialogue turns are stored three ways, each into a throw-away worker, one
``shortterm_memory_create`` call per session (a memory of about 20 turns, each turn a
chunk), with the configured embedding provider:

- ``none``: no graph at all (``tiers.memory_graph.NoGraph`` plugged in for the run);
- ``inline``: the extractor reads each memory before its write and the graph is stored in
  the write's transaction (``extraction_mode: inline``);
- ``background``: the write marks the extraction pending (``extraction_mode:
  background``, with nothing queued), then the extraction tasks' service
  (``memory_extract_graph``) runs for every memory, one after the other, as the task
  cluster would.

Each memory's title names its run, so no run finds another's text in the parser's cache.
"""

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.test import override_settings

from bench.locomo import conversations, sessions, turn_text
from graph.adapters import StoredMemoryGraph
from graph.extraction import get_extractor
from graph.selectors.graph import worker_graph_size
from graph.services.extraction import memory_extract_graph
from memoryhub.models import Worker
from memoryhub.providers.embeddings import get_embedder
from memoryhub.services.workers import worker_create, worker_delete
from tiers.memory_graph import MemoryGraph, NoGraph, memory_graph, plug_memory_graph
from tiers.models import ShorttermMemory
from tiers.services.shortterm import shortterm_memory_create

WORKER_PREFIX = "bench-import-"
RUNS = ("none", "inline", "background")
WARM_UP_TEXT = "Alice Chen owns the billing service, which uses PostgreSQL in Berlin."


@dataclass(frozen=True)
class Session:
    title: str
    turns: list[str]  # one chunk each


def locomo_sessions(folder: Path, turns: int) -> list[Session]:
    """The first ``turns`` dialogue turns of the LoCoMo files in ``folder`` (name order),
    formatted as ``bench_locomo`` stores them, one session per memory. ``ValueError`` when
    the folder holds no LoCoMo file or fewer turns."""
    try:
        found = conversations(folder)
    except FileNotFoundError as exc:
        raise ValueError(str(exc)) from exc
    picked, left = [], turns
    for path, _data, conversation in found:
        for number, when, session_turns in sessions(conversation):
            texts = [turn_text(turn, when) for turn in session_turns[:left]]
            picked.append(Session(title=f"{path.stem} session {number} ({when})", turns=texts))
            left -= len(texts)
            if not left:
                return picked
    raise ValueError(f"{folder} holds {turns - left} turns, fewer than {turns}")


@contextmanager
def plugged(graph: MemoryGraph) -> Iterator[None]:
    """``graph`` as the tiers' memory graph for the block, then the one before again."""
    previous = memory_graph()
    plug_memory_graph(graph)
    try:
        yield
    finally:
        plug_memory_graph(previous)


def graph_settings(*, extractor: str, mode: str):
    graph = {**settings.MEMORYHUB_GRAPH, "extractor": extractor, "extraction_mode": mode}
    return override_settings(MEMORYHUB_GRAPH=graph)


@contextmanager
def extraction_left_pending(extractor: str | None = None) -> Iterator[None]:
    """Background mode without its tasks: the memories written in the block are marked
    pending and wait for the extraction sweep (a benchmark that times the write path, or
    loads a corpus whose graphs it does not read)."""
    extractor = extractor or settings.MEMORYHUB_GRAPH["extractor"]
    with graph_settings(extractor=extractor, mode="background"):
        with plugged(StoredMemoryGraph(enqueue=False)):
            yield


def warm_up(extractor: str) -> None:
    """Load the embedding model and the extractor (the parser's pipeline) before timing."""
    get_embedder().embed_documents([WARM_UP_TEXT, "warm up"])
    get_extractor(extractor).extract_many([WARM_UP_TEXT])


def fresh_worker(run: str) -> Worker:
    name = f"{WORKER_PREFIX}{run}"
    for stale in Worker.objects.filter(name=name):  # left by an interrupted run
        worker_delete(worker=stale)
    return worker_create(name=name, description=f"bench_import: {run} (deleted afterwards)")


def store(worker: Worker, sessions: list[Session], run: str, advance: Callable[[int], None]):
    """Store every session as one memory; seconds taken."""
    started = time.perf_counter()
    for session in sessions:
        shortterm_memory_create(
            worker=worker,
            title=f"[{run}] {session.title}",
            chunks=[{"content": text} for text in session.turns],
        )
        advance(len(session.turns))
    return time.perf_counter() - started


def drain(worker: Worker, advance: Callable[[int], None]) -> float:
    """Run the extraction task's service for each of the worker's memories; seconds."""
    started = time.perf_counter()
    for memory_id in (
        ShorttermMemory.objects.filter(worker=worker).order_by("pk").values_list("pk", flat=True)
    ):
        memory_extract_graph(memory_id=memory_id)
        advance(1)
    return time.perf_counter() - started


def import_run(
    *,
    run: str,
    worker: Worker,
    sessions: list[Session],
    extractor: str,
    progress: Callable[[int, str], Callable[[int], None]],
) -> dict:
    """One of ``RUNS`` into ``worker``. ``progress(total, label)`` returns the ``advance``
    of a progress display. Seconds of the write path, of the drain (background), and the
    graph stored."""
    turns = sum(len(s.turns) for s in sessions)
    if run == "none":
        with plugged(NoGraph()):
            write = store(worker, sessions, run, progress(turns, "no extraction"))
        drained = 0.0
    elif run == "inline":
        with graph_settings(extractor=extractor, mode="inline"):
            write = store(worker, sessions, run, progress(turns, f"{extractor} inline"))
        drained = 0.0
    elif run == "background":
        with extraction_left_pending(extractor):
            write = store(worker, sessions, run, progress(turns, f"{extractor} background"))
        with graph_settings(extractor=extractor, mode="background"):
            drained = drain(worker, progress(len(sessions), "extraction tasks"))
    else:
        raise ValueError(f"unknown run {run!r}; one of {', '.join(RUNS)}")
    return {
        "run": run,
        "chunks": turns,
        "memories": len(sessions),
        "write_seconds": write,
        "drain_seconds": drained,
        "chunks_per_s": turns / write,
        "chunks_per_s_with_drain": turns / (write + drained),
        **worker_graph_size(worker=worker),
    }


def delete_workers(workers: list[Worker]) -> None:
    for worker in workers:
        if Worker.objects.filter(pk=worker.pk).exists():
            worker_delete(worker=worker)
