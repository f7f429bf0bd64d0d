"""Graph queries with one result shape (DESIGN.md §3).

With NEO4J_URL set, traversals (a memory's graph, prefix search, neighbourhood, shortest
path, relationship history) run in Neo4j, which returns ids that PostgreSQL turns into
rows. Otherwise PostgreSQL walks the graph breadth-first, one indexed query per hop.
Ids are always checked against the worker in PostgreSQL first (404 for anything else).
"""

import logging

from django.conf import settings
from django.db import connection
from django.db.models import Q

from graph.extraction.base import ExtractedEntity, ExtractedRelationship, Extraction
from graph.models import Entity, Relationship
from graph.projection.errors import NEO4J_ERRORS
from graph.vocabulary import normalize_name
from memoryhub.errors import DomainError, NotFoundError
from memoryhub.models import Worker
from tiers.models import ExtractionStatus, LongtermChunk, ShorttermChunk, Tier

logger = logging.getLogger(__name__)


# The API's entity and relationship shapes: output key → model field.
ENTITY_FIELDS = {
    key: key
    for key in (
        "id",
        "name",
        "type",
        "tier",
        "description",
        "confidence",
        "importance",
        "source_memory_id",
        "first_seen",
        "last_seen",
        "edited",
    )
}
RELATIONSHIP_FIELDS = {"id": "id", "from_id": "from_entity_id", "to_id": "to_entity_id"} | {
    key: key
    for key in (
        "type",
        "tier",
        "description",
        "confidence",
        "strength",
        "source_memory_id",
        "first_observed",
        "last_observed",
        "start_date",
        "last_updated",
        "edited",
    )
}


def entity_dict(entity: Entity) -> dict:
    return {key: getattr(entity, field) for key, field in ENTITY_FIELDS.items()}


def relationship_dict(rel: Relationship) -> dict:
    return {key: getattr(rel, field) for key, field in RELATIONSHIP_FIELDS.items()}


def _neo4j() -> bool:
    return bool(settings.NEO4J_URL)


def _neo4j_failed(exc: Exception) -> None:
    logger.warning("Neo4j query failed, answering from PostgreSQL instead: %s", exc)


def memories_graph(*, worker: Worker, memory_ids: list[int]) -> dict[int, dict]:
    """Entities and relationships of shortterm memories, two queries for any number."""
    graphs = {mid: {"entities": [], "relationships": []} for mid in memory_ids}
    entities = Entity.objects.filter(worker=worker, source_memory_id__in=memory_ids)
    rels = Relationship.objects.filter(worker=worker, source_memory_id__in=memory_ids)
    if _neo4j():
        from graph.projection import queries as neo4j_backend

        try:
            entity_ids, rel_ids = neo4j_backend.memory_entity_and_relationship_ids(list(memory_ids))
            entities, rels = entities.filter(pk__in=entity_ids), rels.filter(pk__in=rel_ids)
        except NEO4J_ERRORS as exc:
            _neo4j_failed(exc)
    for entity in entities.order_by("id"):
        graphs[entity.source_memory_id]["entities"].append(entity_dict(entity))
    for rel in rels.order_by("id"):
        graphs[rel.source_memory_id]["relationships"].append(relationship_dict(rel))
    return graphs


def _graphs_of_mentions(*, worker: Worker, chunk_ids: list[int], sql: str, args: list) -> dict:
    """Per chunk, the entities ``sql`` finds it mentions (rows ``(chunk id, *entity
    columns)``) and the relationships among them. Two queries for any number of chunks."""
    graphs = {cid: {"entities": [], "relationships": []} for cid in chunk_ids}
    if not chunk_ids:
        return graphs
    with connection.cursor() as cursor:
        cursor.execute(sql, args)
        by_chunk: dict[int, set[int]] = {cid: set() for cid in chunk_ids}
        for chunk_id, *row in cursor.fetchall():
            entity = dict(zip(ENTITY_FIELDS, row, strict=True))
            graphs[chunk_id]["entities"].append(entity)
            by_chunk[chunk_id].add(entity["id"])
        all_ids = sorted(set().union(*by_chunk.values()))
        if not all_ids:
            return graphs
        cursor.execute(
            f"""SELECT {", ".join(RELATIONSHIP_FIELDS.values())} FROM {Relationship._meta.db_table}
                WHERE worker_id = %s AND from_entity_id = ANY(%s) AND to_entity_id = ANY(%s) """
            """ORDER BY id""",
            [worker.pk, all_ids, all_ids],
        )
        rels = [dict(zip(RELATIONSHIP_FIELDS, row, strict=True)) for row in cursor.fetchall()]
    for cid, ids in by_chunk.items():
        graphs[cid]["relationships"] = [
            r for r in rels if r["from_id"] in ids and r["to_id"] in ids
        ]
    return graphs


_ENTITY_COLUMNS = ", ".join(f"e.{field}" for field in ENTITY_FIELDS.values())


def chunks_graph(*, worker: Worker, chunk_ids: list[int]) -> dict[int, dict]:
    """For search results: per chunk, the entities of its memory that the chunk mentions
    (name found in its text) and the relationships among them. Raw SQL returning rows:
    this runs for every search, and building ORM queries and model instances cost more
    than the SQL itself (4.9 → 2.4 ms for 12 hits); each chunk's text is lower-cased once,
    not once per entity of its memory."""
    sql = f"""WITH c AS MATERIALIZED (
                  SELECT id, memory_id, lower(content) AS text
                  FROM {ShorttermChunk._meta.db_table} WHERE id = ANY(%s))
              SELECT c.id, {_ENTITY_COLUMNS} FROM c JOIN {Entity._meta.db_table} e
              ON e.source_memory_id = c.memory_id
              WHERE e.worker_id = %s AND strpos(c.text, lower(e.name)) > 0
              ORDER BY e.id"""
    return _graphs_of_mentions(
        worker=worker, chunk_ids=chunk_ids, sql=sql, args=[list(chunk_ids), worker.pk]
    )


def longterm_chunks_graph(*, worker: Worker, chunk_ids: list[int]) -> dict[int, dict]:
    """For longterm search results: per version, the longterm entities promoted from its
    source that the version mentions, and the longterm relationships among them."""
    sql = f"""WITH c AS MATERIALIZED (
                  SELECT id, shortterm_memory_id AS source, lower(content) AS text
                  FROM {LongtermChunk._meta.db_table} WHERE id = ANY(%s))
              SELECT c.id, {_ENTITY_COLUMNS} FROM c JOIN {Entity._meta.db_table} e
              ON e.worker_id = %s AND e.tier = %s
                 AND e.metadata -> 'sources' @> to_jsonb(c.source)
                 AND strpos(c.text, lower(e.name)) > 0
              ORDER BY e.id"""
    return _graphs_of_mentions(
        worker=worker,
        chunk_ids=chunk_ids,
        sql=sql,
        args=[list(chunk_ids), worker.pk, Tier.LONGTERM],
    )


def graph_overview() -> dict:
    """The shortterm graph's size for the home page (``GraphConfig.overview``)."""
    return {
        "details": {
            "shortterm": f"{Entity.objects.filter(tier=Tier.SHORTTERM).count()} entities, "
            f"{Relationship.objects.filter(tier=Tier.SHORTTERM).count()} relationships"
        }
    }


def worker_graph_size(*, worker: Worker) -> dict[str, int]:
    """How many shortterm entities and relationships the worker's memories hold."""
    return {
        "entities": Entity.objects.filter(worker=worker, tier=Tier.SHORTTERM).count(),
        "relationships": Relationship.objects.filter(worker=worker, tier=Tier.SHORTTERM).count(),
    }


def entity_get(*, worker: Worker, entity_id) -> Entity:
    try:
        return Entity.objects.get(worker=worker, pk=int(entity_id))
    except (Entity.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError(
            f"entity {entity_id} not found", fields={"entity_id": "not found"}
        ) from exc


def entity_search(
    *, worker: Worker, prefix: str, tier: str | None = None, limit: int = 20
) -> list[dict]:
    normalized = normalize_name(prefix or "")
    if not normalized:
        raise DomainError(
            "prefix must contain letters or digits", fields={"prefix": "must not be empty"}
        )
    queryset = Entity.objects.filter(worker=worker, normalized_name__startswith=normalized)
    if tier:
        queryset = queryset.filter(tier=tier)
    if _neo4j():
        from graph.projection import queries as neo4j_backend

        try:
            ids = neo4j_backend.search_ids(
                worker_id=worker.pk,
                prefix=normalized,
                tiers=[tier] if tier else list(neo4j_backend.LABELS),
                limit=limit,
            )
            queryset = queryset.filter(pk__in=ids)
        except NEO4J_ERRORS as exc:
            _neo4j_failed(exc)
    return [
        entity_dict(e) for e in queryset.order_by("normalized_name", "-confidence", "id")[:limit]
    ]


def entity_list(*, worker: Worker, tier: str | None = None, limit: int = 100) -> list[dict]:
    """A worker's entities by name (``entity_search`` without a prefix), for browsing."""
    queryset = Entity.objects.filter(worker=worker)
    if tier:
        queryset = queryset.filter(tier=tier)
    return [
        entity_dict(e) for e in queryset.order_by("normalized_name", "-confidence", "id")[:limit]
    ]


def entity_count(*, worker: Worker, tier: str | None = None) -> int:
    queryset = Entity.objects.filter(worker=worker)
    if tier:
        queryset = queryset.filter(tier=tier)
    return queryset.count()


def _adjacent(worker: Worker, nodes: set[int]) -> list[Relationship]:
    return list(
        Relationship.objects.filter(worker=worker).filter(
            Q(from_entity_id__in=nodes) | Q(to_entity_id__in=nodes)
        )
    )


def neighbourhood(*, worker: Worker, entity_id, hops: int = 1, limit: int | None = None) -> dict:
    """Entities within ``hops`` (1-3) of an entity, either direction, with the
    relationships among them; each entity carries its distance."""
    max_hops = settings.MEMORYHUB_GRAPH["max_hops"]
    if not isinstance(hops, int) or not 1 <= hops <= max_hops:
        raise DomainError(
            f"hops must be 1 to {max_hops}", fields={"hops": f"must be 1 to {max_hops}"}
        )
    limit = limit or settings.MEMORYHUB_GRAPH["max_neighbourhood"]
    start = entity_get(worker=worker, entity_id=entity_id)
    if _neo4j():
        from graph.projection import queries as neo4j_backend

        try:
            depth = neo4j_backend.neighbourhood_distances(
                tier=start.tier, uid=start.pk, worker_id=worker.pk, hops=hops, limit=limit
            )
            return _neighbourhood_rows(worker, start, depth)
        except NEO4J_ERRORS as exc:
            _neo4j_failed(exc)
    depth = {start.pk: 0}
    frontier = {start.pk}
    for level in range(1, hops + 1):
        if not frontier or len(depth) >= limit:
            break
        reached = set()
        for rel in _adjacent(worker, frontier):
            for node in (rel.from_entity_id, rel.to_entity_id):
                if node not in depth and len(depth) < limit:
                    depth[node] = level
                    reached.add(node)
        frontier = reached
    return _neighbourhood_rows(worker, start, depth)


def _neighbourhood_rows(worker: Worker, start: Entity, depth: dict[int, int]) -> dict:
    entities = {e.pk: e for e in Entity.objects.filter(worker=worker, pk__in=depth)}
    depth = {node: d for node, d in depth.items() if node in entities}
    rels = Relationship.objects.filter(
        worker=worker, from_entity_id__in=depth, to_entity_id__in=depth
    ).order_by("id")
    return {
        "center": start.pk,
        "entities": [
            entity_dict(entities[n]) | {"distance": d}
            for n, d in sorted(depth.items(), key=lambda x: (x[1], x[0]))
        ],
        "relationships": [relationship_dict(r) for r in rels],
    }


def shortest_path(*, worker: Worker, from_id, to_id, max_hops: int = 6) -> dict:
    """The fewest relationships (either direction) linking two entities; empty when
    none within ``max_hops``."""
    source, target = (
        entity_get(worker=worker, entity_id=from_id),
        entity_get(worker=worker, entity_id=to_id),
    )
    if source.pk == target.pk:
        return {"found": True, "entities": [entity_dict(source)], "relationships": []}
    if _neo4j():
        try:
            return _neo4j_path(worker, source, target, max_hops)
        except NEO4J_ERRORS as exc:
            _neo4j_failed(exc)
    parents: dict[int, tuple[int, Relationship] | None] = {source.pk: None}
    frontier = {source.pk}
    for _ in range(max_hops):
        if target.pk in parents or not frontier:
            break
        reached = set()
        for rel in sorted(_adjacent(worker, frontier), key=lambda r: r.pk):
            for here, there in (
                (rel.from_entity_id, rel.to_entity_id),
                (rel.to_entity_id, rel.from_entity_id),
            ):
                if here in frontier and there not in parents:
                    parents[there] = (here, rel)
                    reached.add(there)
        frontier = reached
    if target.pk not in parents:
        return {"found": False, "entities": [], "relationships": []}
    nodes, rels, cursor = [target.pk], [], target.pk
    while parents[cursor] is not None:
        cursor, rel = parents[cursor]
        nodes.append(cursor)
        rels.append(rel)
    nodes.reverse()
    rels.reverse()
    entities = {e.pk: e for e in Entity.objects.filter(pk__in=nodes)}
    return {
        "found": True,
        "entities": [entity_dict(entities[n]) for n in nodes],
        "relationships": [relationship_dict(r) for r in rels],
    }


def _neo4j_path(worker: Worker, source: Entity, target: Entity, max_hops: int) -> dict:
    from graph.projection import queries as neo4j_backend

    if source.tier != target.tier:
        return {"found": False, "entities": [], "relationships": []}
    found = neo4j_backend.shortest_path_ids(
        tier=source.tier, from_uid=source.pk, to_uid=target.pk, max_hops=max_hops
    )
    if not found:
        return {"found": False, "entities": [], "relationships": []}
    node_ids, rel_ids = found
    entities = {e.pk: e for e in Entity.objects.filter(worker=worker, pk__in=node_ids)}
    rels = {r.pk: r for r in Relationship.objects.filter(worker=worker, pk__in=rel_ids)}
    if len(entities) != len(set(node_ids)) or len(rels) != len(set(rel_ids)):
        return {"found": False, "entities": [], "relationships": []}  # projection behind PostgreSQL
    return {
        "found": True,
        "entities": [entity_dict(entities[n]) for n in node_ids],
        "relationships": [relationship_dict(rels[r]) for r in rel_ids],
    }


def relationship_history(*, worker: Worker, from_id, to_id) -> list[dict]:
    """Every version of the relationships between two entities, longterm by start_date
    first, then shortterm observations by time."""
    source, target = (
        entity_get(worker=worker, entity_id=from_id),
        entity_get(worker=worker, entity_id=to_id),
    )
    rels = Relationship.objects.filter(worker=worker).filter(
        Q(from_entity=source, to_entity=target) | Q(from_entity=target, to_entity=source)
    )
    if _neo4j() and source.tier == target.tier:
        from graph.projection import queries as neo4j_backend

        try:
            rels = rels.filter(
                pk__in=neo4j_backend.relationship_ids_between(
                    tier=source.tier, a=source.pk, b=target.pk
                )
            )
        except NEO4J_ERRORS as exc:
            _neo4j_failed(exc)
    ordered = sorted(
        rels,
        key=lambda r: (r.tier != Tier.LONGTERM, r.start_date or r.first_observed, r.pk),
    )
    return [relationship_dict(r) for r in ordered]


def entity_history(*, worker: Worker, entity_id) -> dict:
    """An entity through time: every observation of the same (name, type) — each
    shortterm memory that mentioned it, and its longterm record (first/last seen,
    confidence, the sources promoted into it) — oldest first, and every version of its
    longterm relationships (start_date, last_updated), newest first."""
    entity = entity_get(worker=worker, entity_id=entity_id)
    observations = Entity.objects.filter(
        worker=worker, normalized_name=entity.normalized_name, type=entity.type
    ).order_by("first_seen", "pk")
    longterm = next((e for e in observations if e.tier == Tier.LONGTERM), None)
    versions = []
    if longterm is not None:
        rels = (
            Relationship.objects.filter(worker=worker, tier=Tier.LONGTERM)
            .filter(Q(from_entity=longterm) | Q(to_entity=longterm))
            .order_by("-start_date", "-pk")
        )
        versions = [relationship_dict(r) for r in rels]
    return {
        "entity": entity_dict(entity),
        "observations": [entity_dict(e) for e in observations],
        "longterm": None if longterm is None else entity_dict(longterm),
        "relationship_versions": versions,
    }


def chunks_extraction(*, worker: Worker, chunk_ids: list[int]) -> dict[int, Extraction]:
    """The stored graph of each chunk (``chunks_graph``) in the extractor's shape, for
    chunks whose memory's extraction is done; others are left out (extract them anew)."""
    done = set(
        ShorttermChunk.objects.filter(
            pk__in=chunk_ids, worker=worker, memory__extraction_status=ExtractionStatus.DONE
        ).values_list("pk", flat=True)
    )
    out = {}
    for chunk_id, graph in chunks_graph(worker=worker, chunk_ids=sorted(done)).items():
        names = {e["id"]: e["name"] for e in graph["entities"]}
        out[chunk_id] = Extraction(
            entities=[
                ExtractedEntity(
                    name=e["name"],
                    type=e["type"],
                    description=e["description"],
                    confidence=e["confidence"],
                )
                for e in graph["entities"]
            ],
            relationships=[
                ExtractedRelationship(
                    source=names[r["from_id"]],
                    target=names[r["to_id"]],
                    type=r["type"],
                    description=r["description"],
                    confidence=r["confidence"],
                    strength=r["strength"],
                )
                for r in graph["relationships"]
            ],
        )
    return out
