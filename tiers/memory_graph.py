"""The shortterm tier's port to the memory graph.

Every write of a shortterm memory also rewrites the graph of entities and relationships
extracted from it, in the same transaction as its chunks (DESIGN.md §3), and reads of a
memory or of search hits can carry that graph. The graph lives one layer above the tiers,
so the tiers do not import it: the graph app plugs its implementation in when Django
starts (``GraphConfig.ready``) and the tiers call it through ``memory_graph()``. Without
one plugged in, memories are stored without a graph and read with an empty one.
"""

from typing import Any, Protocol


class MemoryGraph(Protocol):
    def read(self, text: str) -> tuple[Any, str]:
        """Extract the graph of ``text``, outside any transaction (it is the slow part and
        may call an LLM): ``(reading, "")``, or ``(None, error)`` when extraction failed.
        Never raises."""

    def store(
        self, *, memory, reading: Any, error: str, confirmed: Any = None, added: bool = False
    ) -> None:
        """Make ``memory``'s graph what ``reading`` says (or record the failure for a
        retry), in the caller's transaction. ``confirmed``: the reading of a text merged
        into the memory, whose facts gain confidence. ``added``: ``reading`` is of chunks
        appended to the memory (with a few before them): what it states is added to the
        graph, nothing is taken away."""

    def forget(self, *, memory_id: int) -> None:
        """Called in the transaction that deletes the memory, before the delete."""

    def of_chunks(self, *, worker, chunk_ids: list[int]) -> dict[int, dict]:
        """``{chunk_id: {"entities": [...], "relationships": [...]}}`` for every id."""

    def of_memories(self, *, worker, memory_ids: list[int]) -> dict[int, dict]:
        """``{memory_id: {"entities": [...], "relationships": [...]}}`` for every id."""

    def of_longterm_chunks(self, *, worker, chunk_ids: list[int]) -> dict[int, dict]:
        """``{chunk_id: {...}}`` for longterm versions: the longterm graph they mention."""


class NoGraph:
    """No graph: nothing extracted, nothing stored, empty graphs read."""

    def read(self, text: str) -> tuple[Any, str]:
        return None, ""

    def store(
        self, *, memory, reading: Any, error: str, confirmed: Any = None, added: bool = False
    ) -> None:
        return None

    def forget(self, *, memory_id: int) -> None:
        return None

    def of_chunks(self, *, worker, chunk_ids: list[int]) -> dict[int, dict]:
        return {chunk_id: {"entities": [], "relationships": []} for chunk_id in chunk_ids}

    def of_memories(self, *, worker, memory_ids: list[int]) -> dict[int, dict]:
        return {memory_id: {"entities": [], "relationships": []} for memory_id in memory_ids}

    def of_longterm_chunks(self, *, worker, chunk_ids: list[int]) -> dict[int, dict]:
        return {chunk_id: {"entities": [], "relationships": []} for chunk_id in chunk_ids}


_plugged: MemoryGraph = NoGraph()


def plug_memory_graph(graph: MemoryGraph) -> None:
    global _plugged
    _plugged = graph


def memory_graph() -> MemoryGraph:
    return _plugged
