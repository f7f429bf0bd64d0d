"""Entity and relationship extraction by an OpenAI-compatible LLM with a JSON schema."""

from graph.extraction.base import (
    ExtractedEntity,
    ExtractedRelationship,
    Extraction,
    ExtractionError,
    Extractor,
)
from graph.vocabulary import ENTITY_TYPES, normalize_relation_type, normalize_type
from memoryhub.providers.llm import LLMError, chat_json

SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["entities", "relationships"],
    "properties": {
        "entities": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name", "type", "description", "confidence"],
                "properties": {
                    "name": {"type": "string"},
                    "type": {"type": "string", "enum": list(ENTITY_TYPES)},
                    "description": {"type": "string"},
                    "confidence": {"type": "number"},
                },
            },
        },
        "relationships": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["from", "to", "type", "description", "confidence", "strength"],
                "properties": {
                    "from": {"type": "string"},
                    "to": {"type": "string"},
                    "type": {
                        "type": "string",
                        "description": "UPPER_SNAKE_CASE verb, e.g. USES, OWNS, DEPENDS_ON",
                    },
                    "description": {"type": "string"},
                    "confidence": {"type": "number"},
                    "strength": {"type": "number"},
                },
            },
        },
    },
}

SYSTEM = (
    "You extract a knowledge graph from an AI agent's memory. Return the named entities "
    f"(types: {', '.join(ENTITY_TYPES)}) and the relationships stated between them. Use the names "
    "as written; a relationship's from/to must be names of returned entities. Confidence and "
    "strength are numbers from 0 to 1. Do not invent facts that the text does not state."
)


def _clamp(value, default=0.5) -> float:
    try:
        return min(1.0, max(0.0, float(value)))
    except (TypeError, ValueError):
        return default


class LLMExtractor(Extractor):
    name = "llm"

    def extract(self, text: str) -> Extraction:
        try:
            answer = chat_json(system=SYSTEM, user=text, schema=SCHEMA, schema_name="memory_graph")
        except LLMError as exc:
            raise ExtractionError(str(exc)) from exc
        entities, relationships = answer.get("entities"), answer.get("relationships")
        if not isinstance(entities, list) or not isinstance(relationships, list):
            raise ExtractionError("LLM answer lacks the entities/relationships lists")
        result = Extraction()
        for item in entities:
            if (
                not isinstance(item, dict)
                or not isinstance(item.get("name"), str)
                or not item["name"].strip()
            ):
                raise ExtractionError(f"malformed entity in LLM answer: {str(item)[:200]}")
            result.entities.append(
                ExtractedEntity(
                    name=item["name"].strip()[:300],
                    type=normalize_type(item.get("type")),
                    description=str(item.get("description") or "")[:2000],
                    confidence=_clamp(item.get("confidence")),
                )
            )
        for item in relationships:
            if not isinstance(item, dict) or not all(
                isinstance(item.get(k), str) for k in ("from", "to", "type")
            ):
                raise ExtractionError(f"malformed relationship in LLM answer: {str(item)[:200]}")
            result.relationships.append(
                ExtractedRelationship(
                    source=item["from"].strip(),
                    target=item["to"].strip(),
                    type=normalize_relation_type(item["type"]),
                    description=str(item.get("description") or "")[:2000],
                    confidence=_clamp(item.get("confidence")),
                    strength=_clamp(item.get("strength")),
                )
            )
        return result
