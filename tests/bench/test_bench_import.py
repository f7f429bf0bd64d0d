import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from bench import importing
from bench.importing import WORKER_PREFIX
from bench.locomo import LOCOMO_DIR
from memoryhub.models import Worker
from tiers.memory_graph import memory_graph

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        not list(LOCOMO_DIR.glob("*.json")), reason=f"no LoCoMo data in {LOCOMO_DIR}"
    ),
]


def _call(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("bench_import", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_it_times_the_three_ways_and_deletes_its_workers():
    plugged = memory_graph()
    out, err = _call("--turns", "30", "--extractor", "heuristic")
    assert out.startswith("30 turns in ") and "extractor heuristic" in out
    rates = dict(re.findall(r"^(no extraction|heuristic \w+) .*? ([\d.]+) chunks/s", out, re.M))
    assert set(rates) == {"no extraction", "heuristic inline", "heuristic background"}
    assert all(float(rate) > 0 for rate in rates.values())
    assert "tasks " in out and "write + tasks" in out
    inline, background = (
        re.search(rf"^heuristic {run} .*; (\d+) entities, (\d+) relationships$", out, re.M).groups()
        for run in ("inline", "background")
    )
    assert inline == background and int(inline[0]) > 0  # the same graph either way
    for label in ("no extraction", "heuristic inline", "heuristic background", "extraction tasks"):
        assert f"{label} [" in err  # a progress display for each step
    assert not Worker.objects.filter(name__startswith=WORKER_PREFIX).exists()
    assert memory_graph() is plugged  # the graph is plugged back in


def test_it_deletes_its_workers_when_a_run_fails(monkeypatch):
    def broken(worker, advance):
        raise RuntimeError("the drain broke")

    monkeypatch.setattr(importing, "drain", broken)
    with pytest.raises(RuntimeError, match="the drain broke"):
        _call("--turns", "5", "--extractor", "heuristic")
    assert not Worker.objects.filter(name__startswith=WORKER_PREFIX).exists()


@pytest.mark.parametrize(
    "args, option",
    [(["--turns", "0"], "--turns"), (["--extractor", "magic"], "--extractor")],
)
def test_it_refuses_bad_arguments(args, option):
    with pytest.raises(CommandError, match=option):
        _call(*args)


def test_it_refuses_a_folder_without_locomo_data(tmp_path):
    with pytest.raises(CommandError, match="--data: no LoCoMo JSON files"):
        _call("--data", str(tmp_path))
