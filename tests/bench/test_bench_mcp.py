import json
from io import StringIO

import pytest
from django.core.management import call_command

from memoryhub.models import Worker


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # the server process reads what the bench stored
def test_bench_mcp_times_calls_in_process_and_over_stdio_and_cleans_up(tmp_path):
    out = StringIO()
    call_command(
        "bench_mcp",
        "--memories",
        "4",
        "--chunks-per-memory",
        "2",
        "--calls",
        "3",
        "--embedder",
        "hash",
        "--transports",
        "stdio",
        "--json",
        str(tmp_path / "m.json"),
        stdout=out,
    )
    report = json.loads((tmp_path / "m.json").read_text())
    assert report["chunks"] == 8
    for where in ("in_process", "stdio"):
        for tool in ("search_shortterm_memory", "retrieve"):
            assert report[where][tool]["n"] == 3 and report[where][tool]["p95"] > 0
    assert "stdio       retrieve" in out.getvalue()
    assert not Worker.objects.filter(name="bench-mcp").exists()
