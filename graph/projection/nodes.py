"""The Neo4j projection (DESIGN.md §3): neomodel classes mirroring the seed schema, and
the Cypher that keeps them equal to PostgreSQL. Nothing here runs unless NEO4J_URL is set.

Every write is a MERGE on the PostgreSQL id (``uid``), so replaying an outbox row is harmless.
"""

import threading

from django.conf import settings
from neomodel import (
    DateTimeProperty,
    FloatProperty,
    IntegerProperty,
    JSONProperty,
    RelationshipTo,
    StringProperty,
    StructuredNode,
    StructuredRel,
    db,
)


class RelatesTo(StructuredRel):
    uid = IntegerProperty(required=True)  # the PostgreSQL id (neomodel reserves "id")
    from_id = IntegerProperty()
    to_id = IntegerProperty()
    type = StringProperty(required=True)
    description = StringProperty(default="")
    confidence = FloatProperty(default=0.5)
    strength = FloatProperty(default=0.5)
    first_observed = DateTimeProperty()
    last_observed = DateTimeProperty()
    start_date = DateTimeProperty()
    last_updated = DateTimeProperty()
    source_memory_id = IntegerProperty()


class _EntityNode(StructuredNode):
    __abstract_node__ = True
    uid = IntegerProperty(unique_index=True, required=True)  # the PostgreSQL id
    worker_id = IntegerProperty(index=True, required=True)
    name = StringProperty(required=True)
    normalized_name = StringProperty(index=True)
    type = StringProperty(index=True)
    description = StringProperty(default="")
    confidence = FloatProperty(default=0.5)
    metadata = JSONProperty()


class ShorttermEntity(_EntityNode):
    source_memory_id = IntegerProperty(index=True)
    first_observed = DateTimeProperty()
    last_observed = DateTimeProperty()
    relates_to = RelationshipTo("ShorttermEntity", "RELATES_TO", model=RelatesTo)


class LongtermEntity(_EntityNode):
    importance = FloatProperty()
    start_date = DateTimeProperty()
    last_updated = DateTimeProperty()
    relates_to = RelationshipTo("LongtermEntity", "RELATES_TO", model=RelatesTo)


LABELS = {"shortterm": "ShorttermEntity", "longterm": "LongtermEntity"}
# The seed's temporal uniqueness of longterm relationships (Neo4j 5.7+).
EXTRA_CONSTRAINTS = [
    "CREATE CONSTRAINT relates_to_temporal IF NOT EXISTS FOR ()-[r:RELATES_TO]-() "
    "REQUIRE (r.from_id, r.to_id, r.type, r.start_date) IS UNIQUE",
]

_connected_url = None
_lock = threading.Lock()


def connect() -> None:
    """Point neomodel at NEO4J_URL (once per process and URL)."""
    global _connected_url
    with _lock:
        if _connected_url != settings.NEO4J_URL:
            db.set_connection(url=settings.NEO4J_URL)
            _connected_url = settings.NEO4J_URL


def install_schema(stdout=None) -> None:
    connect()
    db.install_all_labels(stdout=stdout)
    for statement in EXTRA_CONSTRAINTS:
        db.cypher_query(statement)


def _iso(value):
    """neomodel's DateTimeProperty stores POSIX timestamps (floats)."""
    return value.timestamp() if value else None


def entity_props(entity) -> dict:
    props = {
        "uid": entity.pk,
        "worker_id": entity.worker_id,
        "name": entity.name,
        "normalized_name": entity.normalized_name,
        "type": entity.type,
        "description": entity.description,
        "confidence": entity.confidence,
    }
    if entity.tier == "shortterm":
        props |= {
            "source_memory_id": entity.source_memory_id,
            "first_observed": _iso(entity.first_seen),
            "last_observed": _iso(entity.last_seen),
        }
    else:
        props |= {
            "importance": entity.importance,
            "start_date": _iso(entity.first_seen),
            "last_updated": _iso(entity.last_seen),
        }
    return props


def relationship_props(rel) -> dict:
    return {
        "uid": rel.pk,
        "from_id": rel.from_entity_id,
        "to_id": rel.to_entity_id,
        "type": rel.type,
        "description": rel.description,
        "confidence": rel.confidence,
        "strength": rel.strength,
        "first_observed": _iso(rel.first_observed),
        "last_observed": _iso(rel.last_observed),
        "start_date": _iso(rel.start_date),
        "last_updated": _iso(rel.last_updated),
        "source_memory_id": rel.source_memory_id,
    }


def upsert_entities(entities) -> None:
    for tier, label in LABELS.items():
        rows = [entity_props(e) for e in entities if e.tier == tier]
        if rows:
            db.cypher_query(
                f"UNWIND $rows AS row MERGE (n:{label} {{uid: row.uid}}) SET n += row",
                {"rows": rows},
            )


def upsert_relationships(relationships) -> None:
    for tier, label in LABELS.items():
        rows = [relationship_props(r) for r in relationships if r.tier == tier]
        if rows:
            db.cypher_query(
                f"UNWIND $rows AS row "
                f"MATCH (a:{label} {{uid: row.from_id}}), (b:{label} {{uid: row.to_id}}) "
                "MERGE (a)-[r:RELATES_TO {uid: row.uid}]->(b) SET r += row",
                {"rows": rows},
            )


def delete_entities(ids: list[int]) -> None:
    if ids:
        db.cypher_query(
            "MATCH (n) WHERE (n:ShorttermEntity OR n:LongtermEntity) AND n.uid IN $ids "
            "DETACH DELETE n",
            {"ids": ids},
        )


def delete_relationships(ids: list[int]) -> None:
    if ids:
        db.cypher_query("MATCH ()-[r:RELATES_TO]->() WHERE r.uid IN $ids DELETE r", {"ids": ids})


def wipe() -> None:
    db.cypher_query("MATCH (n) WHERE n:ShorttermEntity OR n:LongtermEntity DETACH DELETE n")


def counts() -> dict:
    rows, _ = db.cypher_query(
        "MATCH (n) WHERE n:ShorttermEntity OR n:LongtermEntity WITH count(n) AS nodes "
        "OPTIONAL MATCH ()-[r:RELATES_TO]->() RETURN nodes, count(r)"
    )
    return {"entities": rows[0][0], "relationships": rows[0][1]}
