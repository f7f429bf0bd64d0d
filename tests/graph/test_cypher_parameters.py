"""Names are data, never Cypher: every query the Neo4j projection sends is a constant
text (only the node label, from a fixed table, is formatted in), and every value travels
as a parameter. Checked on the source, so it holds without a Neo4j server."""

import ast
from pathlib import Path

from graph.models import Entity
from graph.projection import nodes

PROJECTION = Path(nodes.__file__).resolve().parent
FORMATTED_ALLOWED = {"label"}  # a value of nodes.LABELS


def _query_texts():
    for path in sorted(PROJECTION.glob("*.py")):
        tree = ast.parse(path.read_text())
        for call in ast.walk(tree):
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr in ("cypher_query", "run", "execute_query")
                and call.args
            ):
                yield path.name, call.lineno, call.args[0]


def test_every_cypher_query_is_constant_apart_from_the_label():
    seen = 0
    for name, line, text in _query_texts():
        seen += 1
        assert not isinstance(text, ast.BinOp), f"{name}:{line} builds a query with % or +"
        if isinstance(text, ast.Call):
            assert not (isinstance(text.func, ast.Attribute) and text.func.attr == "format"), (
                f"{name}:{line} uses .format"
            )
        for node in ast.walk(text):
            if isinstance(node, ast.FormattedValue):
                assert isinstance(node.value, ast.Name), f"{name}:{line}"
                assert node.value.id in FORMATTED_ALLOWED, f"{name}:{line}: {node.value.id}"
    assert seen >= 5
    assert set(nodes.LABELS.values()) == {"ShorttermEntity", "LongtermEntity"}


def test_a_hostile_name_is_carried_as_a_parameter_value(worker):
    from django.utils import timezone

    hostile = "x'}) DETACH DELETE n //; DROP TABLE graph_entity; --"
    entity = Entity(
        tier="shortterm",
        worker=worker,
        name=hostile,
        normalized_name=hostile.lower(),
        type="concept",
        first_seen=timezone.now(),
        last_seen=timezone.now(),
    )
    props = nodes.entity_props(entity)
    assert props["name"] == hostile  # unchanged data in the $rows parameter
