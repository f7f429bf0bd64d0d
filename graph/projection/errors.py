"""What the Neo4j driver raises when the server is unreachable or refuses a query: the
graph selectors then answer from PostgreSQL. (Light: imports the driver's exceptions only,
not the neomodel classes.)"""

from neo4j.exceptions import DriverError, Neo4jError

NEO4J_ERRORS = (DriverError, Neo4jError, OSError)
