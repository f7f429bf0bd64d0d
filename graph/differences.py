"""How two graphs of entities and relationships compare: overlap figures and what one adds
to the other or contradicts. Pure functions over extractions (``graph.extraction.base``),
used by consolidation to judge a section against a chunk and by ``auto_resolve`` to grow
a memory's graph."""

from graph.extraction.base import Extraction
from graph.vocabulary import (
    FUNCTIONAL,
    OPPOSITE,
    comparable_name,
    normalize_name,
    normalize_relation_type,
    normalize_type,
    product_name,
    unordered_name,
)
from memoryhub.text import jaccard


def _triples(extraction: Extraction) -> set[tuple[str, str, str]]:
    return {
        (normalize_name(r.source), normalize_relation_type(r.type), normalize_name(r.target))
        for r in extraction.relationships
    }


def _products(extraction: Extraction) -> set[str]:
    """Each entity's comparable name, its words in any order ("22 Rua das Flores" is "Rua
    das Flores 22")."""
    return {
        unordered_name(product_name(comparable_name(e.name), e.type)) for e in extraction.entities
    }


def entity_overlap(incoming: Extraction, existing: Extraction) -> float:
    """Jaccard over normalised entity names, a product's release aside (the figure reported
    with a candidate)."""
    a = _products(incoming)
    b = _products(existing)
    return jaccard(a, b) if a or b else 1.0


def entity_containment(incoming: Extraction, existing: Extraction) -> float:
    """|A ∩ B| / min(|A|, |B|): 1.0 when one text's entities include the other's, so an
    addition ("…, and backups run nightly") is not mistaken for another subject."""
    a = _products(incoming)
    b = _products(existing)
    if not a or not b:
        return 1.0
    return len(a & b) / min(len(a), len(b))


def relationship_overlap(incoming: Extraction, existing: Extraction) -> float:
    """Jaccard over normalised (from, type, to) triples; 1.0 when neither has any."""
    a, b = _triples(incoming), _triples(existing)
    return jaccard(a, b) if a or b else 1.0


def graph_differences(incoming: Extraction, existing: Extraction) -> tuple[dict, dict]:
    """What the incoming graph adds to the existing one, and where they disagree:
    ``({"new": [...], "conflicts": [...]}, {"new": [...], "conflicts": [...]})`` for
    entities and relationships (the review queue shows both). Names compare in their
    normal form, types in the controlled vocabulary; an entity typed ``concept`` on
    either side matches any type. A relationship conflicts when a functional relation of
    the same subject points elsewhere or its opposite holds between the same entities."""
    types = {normalize_name(e.name): normalize_type(e.type) for e in existing.entities}
    entities = {"new": [], "conflicts": []}
    seen: set[str] = set()
    for entity in incoming.entities:
        name, kind = normalize_name(entity.name), normalize_type(entity.type)
        if not name or name in seen:
            continue
        seen.add(name)
        if name not in types:
            entities["new"].append({"name": entity.name, "type": kind})
        elif types[name] != kind and "concept" not in (types[name], kind):
            entities["conflicts"].append(
                {"name": entity.name, "existing_type": types[name], "incoming_type": kind}
            )
    existing_triples = _triples(existing)
    functional = {(s, t): o for s, t, o in existing_triples if t in FUNCTIONAL}
    relationships = {"new": [], "conflicts": []}
    stated: set[tuple[str, str, str]] = set()
    for rel in incoming.relationships:
        kind = normalize_relation_type(rel.type)
        triple = (normalize_name(rel.source), kind, normalize_name(rel.target))
        if triple in existing_triples or triple in stated:
            continue
        stated.add(triple)
        incoming_dict = {"from": rel.source, "type": kind, "to": rel.target}
        opposite = OPPOSITE.get(kind)
        if kind in FUNCTIONAL and (triple[0], kind) in functional:
            relationships["conflicts"].append(
                {
                    "incoming": incoming_dict,
                    "reason": "functional_relationship_changed",
                    "existing": {
                        "from": triple[0],
                        "type": kind,
                        "to": functional[(triple[0], kind)],
                    },
                }
            )
        elif opposite and (triple[0], opposite, triple[2]) in existing_triples:
            relationships["conflicts"].append(
                {
                    "incoming": incoming_dict,
                    "reason": "negation_flip",
                    "existing": {"from": triple[0], "type": opposite, "to": triple[2]},
                }
            )
        else:
            relationships["new"].append(incoming_dict)
    return entities, relationships
