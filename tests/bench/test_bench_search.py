import json
from io import StringIO

import pytest
from django.core.management import call_command

from memoryhub.models import Worker


@pytest.mark.django_db(transaction=True)  # the benchmark vacuums, which no transaction may hold
def test_bench_search_reports_every_figure_and_cleans_up(tmp_path):
    out = StringIO()
    call_command(
        "bench_search",
        "--chunks",
        "300",
        "--queries",
        "5",
        "--memory-size",
        "50",
        "--no-http",
        "--json",
        str(tmp_path / "s.json"),
        stdout=out,
        stderr=StringIO(),
    )
    report = json.loads((tmp_path / "s.json").read_text())
    ingest = report["ingest"]
    assert ingest["with_embeddings_sample"] == 300 and ingest["with_embeddings_chunks_per_s"] > 0
    assert ingest["ratio_to_model"] == pytest.approx(
        ingest["with_embeddings_chunks_per_s"] / ingest["model_on_sample_chunks_per_s"]
    )
    for mode in ("vector", "bm25", "hybrid"):
        assert report["service"][mode]["n"] == 5 and report["in_memory"][mode]["n"] == 5
        assert f"service {mode}" in out.getvalue() and "ratio to in-memory" in out.getvalue()
    assert 0.0 <= report["hnsw_recall_at_10"] <= 1.0 and report["chunk_count"] == 300
    assert not Worker.objects.filter(name__startswith="bench-300").exists()  # both workers deleted
