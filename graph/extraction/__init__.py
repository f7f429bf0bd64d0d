"""Entity and relationship extractors.

- ``parser`` (default): spaCy's small English pipeline (``memoryhub.nlp``), named entities,
  filtered noun chunks, identifier patterns and a technology gazetteer; relationships from
  dependency patterns.
- ``heuristic``: the earlier rules over the raw text; used only when the parser cannot
  load (the health view says so), or when asked for by name.
- ``llm``: an OpenAI-compatible chat endpoint asked for JSON (``MEMORYHUB_LLM_URL``).

Every extractor has ``name``, ``extract(text) -> Extraction`` and
``extract_many(texts) -> list[Extraction]`` (batched where the extractor can batch).
"""

from django.conf import settings

EXTRACTOR_NAMES = ("parser", "heuristic", "llm")


def _build(name: str):
    if name == "llm":
        from graph.extraction.llm import LLMExtractor

        return LLMExtractor()
    if name == "parser":
        from memoryhub.nlp import parser_available

        if parser_available():
            from graph.extraction.parser import ParserExtractor

            return ParserExtractor()
        name = "heuristic"
    if name == "heuristic":
        from graph.extraction.heuristic import HeuristicExtractor

        return HeuristicExtractor()
    raise ValueError(f"unknown extractor {name!r}; choose one of {', '.join(EXTRACTOR_NAMES)}")


def get_extractor(name: str | None = None):
    """The extractor called ``name`` (default: the configured one). ``parser`` falls back
    to ``heuristic`` when the spaCy pipeline cannot load."""
    return _build(name or settings.MEMORYHUB_GRAPH["extractor"])


def extractor_status() -> dict:
    """What the health view shows: the configured extractor, the one running, and why they
    differ."""
    from memoryhub.nlp import nlp_status

    configured = settings.MEMORYHUB_GRAPH["extractor"]
    status = {"configured": configured, "active": configured, "fallback_reason": ""}
    if configured == "parser":
        from graph.extraction.parser.vectors import name_model_status

        parser = nlp_status()
        status["parser"] = parser
        status["name_vectors"] = name_model_status()
        if not parser["available"]:
            status["active"] = "heuristic"
            status["fallback_reason"] = f"the parser cannot load: {parser['error']}"
    return status
