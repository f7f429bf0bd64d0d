"""Entity and relationship extractors: ``local`` (rules, offline) and ``llm``."""

from django.conf import settings


def get_extractor():
    from graph.extraction.llm import LLMExtractor
    from graph.extraction.local import LocalExtractor

    if settings.MEMORYHUB_GRAPH["extractor"] == "llm":
        return LLMExtractor()
    return LocalExtractor()
