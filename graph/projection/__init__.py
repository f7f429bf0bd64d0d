"""Everything of the Neo4j projection (DESIGN.md §3), used only when NEO4J_URL is set:
the outbox rows recorded beside every graph write (``outbox``), the neomodel classes and
their Cypher (``nodes``), the read queries the graph selectors delegate to (``queries``),
and the drain, resync and status of the projection (``sync``)."""
