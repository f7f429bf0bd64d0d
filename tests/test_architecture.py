"""The house stays one-way and tidy: the import contracts of pyproject.toml
([tool.importlinter], README "How the code is laid out") and ruff at the project's line
length. Both run here so that the README's test command fails on a circle, an upward
import or a lint error, and shows why."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_import_contracts_are_kept():
    result = _run(str(BIN / "lint-imports"), "--no-cache")
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "0 broken" in report
    verdicts = {
        line.rsplit(" ", 1)[0]: line.rsplit(" ", 1)[1]
        for line in report.splitlines()
        if line.endswith((" KEPT", " BROKEN"))
    }
    for contract in (
        "Apps import only downward",
        "Only graph.projection talks to Neo4j",
        "No import circles between the sub-packages of an app",
    ):
        matching = [verdict for name, verdict in verdicts.items() if name.startswith(contract)]
        assert matching == ["KEPT"], report


@pytest.mark.parametrize(
    "package", ["memoryhub", "tiers", "graph", "consolidation", "agents", "review"]
)
def test_the_foundation_and_each_app_have_a_layer(package):
    """Every app is named in the house contract, so a new import between apps is checked."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    house = next(c for c in config["contracts"] if c["id"] == "house")
    named = {name.strip().split(".")[0] for layer in house["layers"] for name in layer.split("|")}
    assert package in named


def test_ruff_is_clean():
    result = _run(str(BIN / "ruff"), "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr
