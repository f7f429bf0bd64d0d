"""Sections (and chunks) read when they are written: what the migration decision reads
of an active section — its embedding, its parse with the claims read of it, and its graph —
made in the background once the agent's update has committed
(``consolidation.tasks.read_sections``), and kept beside the section
(``tiers.models.ActiveSectionReading``). The decision then
reads them back (~2 ms) instead of embedding, parsing and extracting the section (~57 ms
of a long one on 2 cores), leaving it the search for candidates, the comparison and the
model. A section written again is read again; a reading of an earlier content, or made by
another parser or embedder, is never used (the decision reads the section itself, as it
does when no reading was made). Safe to run twice: a section read already is skipped, and
a reading is kept only while the section still holds the content it was made from."""

from django.conf import settings

from consolidation.claims import read_ahead
from graph.extraction import get_extractor
from graph.extraction.base import Extraction
from memoryhub.nlp import (
    nlp_status,
    parse_many,
    parse_version,
    parser_available,
    remember_stored,
    stored_form,
)
from memoryhub.providers.embeddings import embedder_identity, get_embedder
from tiers.models import ActiveMemory, ActiveSectionReading
from tiers.selectors.active import active_section_reading, active_section_reading_hashes
from tiers.selectors.shortterm import shortterm_chunks_without_parse
from tiers.services.active import active_section_readings_keep
from tiers.services.shortterm import shortterm_chunk_parses_keep


def reading_version() -> str:
    """What a reading is made by: the parser (its pipeline and the code around it), the
    embedder and the extractor. A reading of any other is not used."""
    return f"{parse_version()}|{embedder_identity()}|{settings.MEMORYHUB_GRAPH['extractor']}"


def read_on_write_status(*, load: bool = True) -> dict:
    """``{"mode", "active", "reason"}``: whether sections are read when they are written
    (``read_on_write``). ``auto`` reads them when the parser loads and the embedder and the
    extractor run here (no paid or remote call is made on every write for it). The health
    view asks with ``load=False`` (the parser is not loaded for it)."""
    mode = settings.MEMORYHUB_MIGRATION["read_on_write"]
    parser = parser_available() if load else nlp_status()["available"]
    reason = ""
    if mode == "off":
        reason = "switched off (MEMORYHUB_MIGRATION_READ_ON_WRITE=off)"
    elif not parser:
        reason = "the parser cannot load"
    elif mode == "auto" and settings.MEMORYHUB_EMBEDDINGS["provider"] == "openai":
        reason = "auto: the embedder is a remote service"
    elif mode == "auto" and settings.MEMORYHUB_GRAPH["extractor"] == "llm":
        reason = "auto: the extractor is an LLM"
    return {"mode": mode, "active": not reason, "reason": reason}


def reading_on_write() -> bool:
    return read_on_write_status()["active"]


def section_readings_make(*, memory_id: int, section_ids: list[str] | None = None) -> int:
    """Read the sections (all, or these) of an active memory that have content and no
    reading of it yet, in one batch, and keep the readings. Returns how many were kept."""
    memory = ActiveMemory.objects.filter(pk=memory_id).first()
    if memory is None or not parser_available():
        return 0
    version = reading_version()
    kept = active_section_reading_hashes(memory_id=memory_id, version=version)
    wanted = {
        sid: data.get("content", "")
        for sid, data in memory.sections.items()
        if (section_ids is None or sid in section_ids) and data.get("content", "").strip()
    }
    unread = {
        sid: c for sid, c in wanted.items() if kept.get(sid) != ActiveSectionReading.hash_of(c)
    }
    if not unread:
        return 0
    contents = list(unread.values())
    extractor = get_extractor()
    parse_many(contents)
    vectors = get_embedder().embed_documents(contents)
    quick = extractor.extract_quick_many(contents)
    whole = extractor.extract_many(contents)
    readings = []
    for at, (sid, content) in enumerate(unread.items()):
        read_ahead(content)
        readings.append(
            {
                "section_id": sid,
                "content": content,
                "version": version,
                "embedding": vectors[at],
                "parse": stored_form(content),
                "quick_graph": quick[at].as_dict(),
                "graph": whole[at].as_dict(),
            }
        )
    return active_section_readings_keep(memory_id=memory_id, readings=readings)


def section_reading(*, memory_id: int, section_id: str, content: str) -> dict | None:
    """The kept reading of the section as the decision uses it, its parse and claims put
    back in this process's caches: ``{"vector", "quick_graph", "graph"}`` (two
    ``Extraction``); None when none was made of this content by these models."""
    if not parser_available():
        return None
    row = active_section_reading(
        memory_id=memory_id, section_id=section_id, content=content, version=reading_version()
    )
    if row is None or not remember_stored(content, row["parse"]):
        return None
    return {
        "vector": row["embedding"],
        "quick_graph": Extraction.from_dict(row["quick_graph"]),
        "graph": Extraction.from_dict(row["graph"]),
    }


CHUNK_BATCH = 64  # chunks parsed and kept at once (the parse cache holds 1024 texts)


def chunk_readings_make(*, chunk_ids: list[int]) -> int:
    """Parse the shortterm chunks among ``chunk_ids`` that have no kept parse, read what
    the claim judge reads of each, and keep both with the chunk: the other side of a
    migration's comparison, read before it is needed. Returns how many were kept."""
    if not parser_available():
        return 0
    kept = 0
    for start in range(0, len(chunk_ids), CHUNK_BATCH):
        unread = shortterm_chunks_without_parse(chunk_ids=chunk_ids[start : start + CHUNK_BATCH])
        if not unread:
            continue
        parse_many(list(unread.values()))
        for content in unread.values():
            read_ahead(content)
        kept += shortterm_chunk_parses_keep(chunks=unread)
    return kept


def read_chunks_on_write(*, chunk_ids: list[int], **_) -> None:
    """``tiers.signals.shortterm_chunks_written``: queue the reading of chunks stored
    without their parse (``read_on_write``), a few hundred per task."""
    if not reading_on_write():
        return None
    from django_q.tasks import async_task

    for start in range(0, len(chunk_ids), 500):
        async_task("consolidation.tasks.read_chunks", chunk_ids[start : start + 500])
    return None


def read_sections_on_update(*, memory_id: int, section_ids: list[str] | None = None, **_) -> None:
    """``tiers.signals.active_sections_updated``: queue the reading of the written
    sections on the task cluster (``read_on_write``)."""
    if not reading_on_write():
        return None
    from django_q.tasks import async_task

    return async_task("consolidation.tasks.read_sections", memory_id, section_ids)
