"""docker-compose.yml cannot run here (no Docker engine): check it by reading it."""

import re
from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parent.parent

# The part of the Compose specification this file uses, strictly.
SERVICE_SCHEMA = {
    "type": "object",
    "properties": {
        "image": {"type": "string"},
        "build": {"type": "string"},
        "command": {"type": "array", "items": {"type": "string"}},
        "environment": {"type": "object", "additionalProperties": {"type": "string"}},
        "ports": {"type": "array", "items": {"type": "string", "pattern": r"^\d+:\d+$"}},
        "volumes": {"type": "array", "items": {"type": "string"}},
        "depends_on": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "condition": {
                        "enum": [
                            "service_started",
                            "service_healthy",
                            "service_completed_successfully",
                        ]
                    }
                },
                "required": ["condition"],
                "additionalProperties": False,
            },
        },
        "healthcheck": {
            "type": "object",
            "properties": {
                "test": {"type": "array", "items": {"type": "string"}, "minItems": 2},
                "interval": {"type": "string"},
                "timeout": {"type": "string"},
                "retries": {"type": "integer"},
                "start_period": {"type": "string"},
            },
            "required": ["test"],
            "additionalProperties": False,
        },
        "restart": {"enum": ["no", "always", "on-failure", "unless-stopped"]},
    },
    "oneOf": [{"required": ["image"]}, {"required": ["build"]}],
    "additionalProperties": False,
}
COMPOSE_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "services": {"type": "object", "additionalProperties": SERVICE_SCHEMA},
        "volumes": {"type": "object"},
    },
    "patternProperties": {"^x-": {}},
    "required": ["services"],
    "additionalProperties": False,
}


def load():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_it_matches_the_compose_schema():
    jsonschema.validate(load(), COMPOSE_SCHEMA)


def test_it_has_the_four_services_with_healthchecks():
    services = load()["services"]
    assert set(services) == {"postgres", "neo4j", "web", "qcluster"}
    assert services["postgres"]["image"].startswith("pgvector/pgvector:")
    assert re.match(r"neo4j:5(\.|-|$)", services["neo4j"]["image"])
    for name in ("postgres", "neo4j", "web"):
        assert services[name]["healthcheck"]["test"][0] in ("CMD", "CMD-SHELL")
    assert services["web"]["build"] == services["qcluster"]["build"] == "."
    assert (ROOT / "Dockerfile").exists()
    assert services["qcluster"]["command"] == ["python", "manage.py", "qcluster"]


def test_volumes_and_dependencies_are_declared():
    compose = load()
    services = compose["services"]
    for service in services.values():
        for dependency in service.get("depends_on", {}):
            assert dependency in services
        for volume in service.get("volumes", []):
            assert volume.split(":")[0] in compose["volumes"]
    assert services["web"]["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_the_app_is_wired_by_the_settings_names():
    services = load()["services"]
    for name in ("web", "qcluster"):
        env = services[name]["environment"]
        assert (
            env["DATABASE_URL"].startswith("postgres://")
            and "@postgres:5432/" in env["DATABASE_URL"]
        )
        assert env["NEO4J_URL"].startswith("bolt://") and "@neo4j:7687" in env["NEO4J_URL"]
        assert "SECRET_KEY" in env
    assert "NEO4J_AUTH" in services["neo4j"]["environment"]


def test_every_variable_it_reads_is_documented():
    text = (ROOT / "docker-compose.yml").read_text()
    variables = set(re.findall(r"(?<!\$)\$\{([A-Z0-9_]+)", text))
    documented = (ROOT / ".env.example").read_text()
    missing = [v for v in sorted(variables) if v not in documented]
    assert not missing, f"not in .env.example: {missing}"


def test_the_dockerfile_runs_commands_that_exist():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.startswith("#") and "FROM python:3.11" in dockerfile
    for command in re.findall(r"manage\.py (\w+)", dockerfile):
        builtin = command in {"migrate", "createcachetable", "collectstatic", "qcluster"}
        assert builtin or any(
            (ROOT / app / "management" / "commands" / f"{command}.py").exists()
            for app in ("memoryhub", "tiers", "graph")
        ), command
