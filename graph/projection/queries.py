"""The Neo4j side of the graph selectors (used when NEO4J_URL is set). Neo4j answers with
ids only (the traversal is its job); PostgreSQL, the system of record, turns them into
rows, so both backends return the same shape. Keep the Cypher simple and standard."""

from graph.projection import nodes as neo

LABELS = neo.LABELS


def _ids(query: str, params: dict) -> list:
    neo.connect()
    rows, _ = neo.db.cypher_query(query, params)
    return rows


def memory_entity_and_relationship_ids(memory_ids: list[int]) -> tuple[list[int], list[int]]:
    rows = _ids(
        "MATCH (n:ShorttermEntity) WHERE n.source_memory_id IN $ids "
        "OPTIONAL MATCH (n)-[r:RELATES_TO]->(:ShorttermEntity) "
        "RETURN collect(DISTINCT n.uid), collect(DISTINCT r.uid)",
        {"ids": memory_ids},
    )
    return (rows[0][0], [i for i in rows[0][1] if i is not None]) if rows else ([], [])


def search_ids(*, worker_id: int, prefix: str, tiers: list[str], limit: int) -> list[int]:
    uids: list[tuple[str, int]] = []
    for tier in tiers:
        rows = _ids(
            f"MATCH (n:{LABELS[tier]}) "
            "WHERE n.worker_id = $worker AND n.normalized_name STARTS WITH $prefix "
            "RETURN n.normalized_name, n.uid ORDER BY n.normalized_name, n.uid LIMIT $limit",
            {"worker": worker_id, "prefix": prefix, "limit": limit},
        )
        uids += [(name, uid) for name, uid in rows]
    return [uid for _, uid in sorted(uids)[:limit]]


def neighbourhood_distances(
    *, tier: str, uid: int, worker_id: int, hops: int, limit: int
) -> dict[int, int]:
    label = LABELS[tier]
    rows = _ids(
        f"MATCH (c:{label} {{uid: $uid}}) "
        f"MATCH p = (c)-[:RELATES_TO*1..{int(hops)}]-(n:{label}) "
        "WHERE n.worker_id = $worker AND n <> c "
        "RETURN n.uid, min(length(p)) AS distance ORDER BY distance, n.uid LIMIT $limit",
        {"uid": uid, "worker": worker_id, "limit": max(limit - 1, 0)},
    )
    return {uid: 0} | {node: distance for node, distance in rows}


def shortest_path_ids(
    *, tier: str, from_uid: int, to_uid: int, max_hops: int
) -> tuple[list[int], list[int]] | None:
    label = LABELS[tier]
    rows = _ids(
        f"MATCH (a:{label} {{uid: $a}}), (b:{label} {{uid: $b}}) "
        f"MATCH p = shortestPath((a)-[:RELATES_TO*..{int(max_hops)}]-(b)) "
        "RETURN [n IN nodes(p) | n.uid], [r IN relationships(p) | r.uid]",
        {"a": from_uid, "b": to_uid},
    )
    return (rows[0][0], rows[0][1]) if rows else None


def relationship_ids_between(*, tier: str, a: int, b: int) -> list[int]:
    label = LABELS[tier]
    rows = _ids(
        f"MATCH (x:{label} {{uid: $a}})-[r:RELATES_TO]-(y:{label} {{uid: $b}}) "
        "RETURN DISTINCT r.uid",
        {"a": a, "b": b},
    )
    return [row[0] for row in rows]
