import json
from io import StringIO

import pytest
from django.core.management import call_command

from memoryhub.models import Worker
from tiers.models import ShorttermMemory


def _locomo(folder):
    conversation = {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "I moved to Lisbon in March."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "How is the new job at the bakery?"},
        ],
        "session_2_date_time": "10:00 am on 9 May, 2023",
        "session_2": [{"speaker": "Ana", "dia_id": "D2:1", "text": "Great, I bake bread."}],
    }
    (folder / "26.json").write_text(json.dumps({"conversation": conversation, "qa": []}))


@pytest.mark.django_db(transaction=True)
def test_bench_writes_times_the_model_and_the_service_by_step_and_cleans_up(tmp_path):
    _locomo(tmp_path)
    out = StringIO()
    call_command(
        "bench_writes",
        "--data",
        str(tmp_path),
        "--passes",
        "2",
        "--no-http",
        "--json",
        str(tmp_path / "w.json"),
        stdout=out,
        stderr=StringIO(),
    )
    report = json.loads((tmp_path / "w.json").read_text())
    assert report["turns"] == 3 and report["sessions"] == 2
    assert report["turns_per_s"]["model"] > 0 and report["turns_per_s"]["service"] > 0
    assert report["service_to_model"] == pytest.approx(
        report["turns_per_s"]["service"] / report["turns_per_s"]["model"]
    )
    assert {"embedding", "graph extraction", "chunks + BM25 postings"} <= set(report["ms_per_turn"])
    assert "x the model" in out.getvalue()
    assert not Worker.objects.filter(name__startswith="bench-writes-").exists()
    assert not ShorttermMemory.objects.exists()
