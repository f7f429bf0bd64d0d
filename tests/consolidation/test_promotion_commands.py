"""The promotion and retention commands, as an operator runs them."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from tiers.models import LongtermChunk, ShorttermMemory
from tiers.services.shortterm import shortterm_memory_create
from tiers.services.usage import usage_record

pytestmark = pytest.mark.django_db


def _run(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_promote_sweeps_with_progress_and_promotes_one_on_request(worker):
    marked = shortterm_memory_create(worker=worker, title="Keys", content="Deploy keys rotate.")
    usage_record(worker=worker, memory_id=marked.pk, kind="mark_important")
    out, err = _run("promote", "--worker", worker.name)
    assert "1 checked, 1 promoted" in out and "promotion sweep [" in err
    other = shortterm_memory_create(worker=worker, title="Lunch", content="Lunch at noon.")
    out, _ = _run("promote", "--worker", worker.name, "--memory", str(other.pk))
    assert "1 version(s) created" in out
    assert LongtermChunk.objects.filter(worker=worker).count() == 2
    out, _ = _run("promote", "--worker", worker.name, "--memory", str(other.pk))
    assert "unchanged" in out
    with pytest.raises(CommandError):
        _run("promote", "--worker", "nobody")
    with pytest.raises(CommandError):
        _run("promote", "--memory", str(other.pk))


def test_retention_dry_run_lists_and_the_run_removes(worker):
    old = shortterm_memory_create(worker=worker, title="Old", content="A passing remark.")
    ShorttermMemory.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(days=40),
        last_updated=timezone.now() - timedelta(days=40),
    )
    out, _ = _run("retention", "--dry-run")
    assert f"{old.pk}\t{worker.pk}\tOld" in out and "nothing removed" in out
    assert ShorttermMemory.objects.filter(pk=old.pk).exists()
    out, _ = _run("retention", "--worker", worker.name)
    assert "1 removed" in out and "removed:" in out
    assert not ShorttermMemory.objects.filter(pk=old.pk).exists()
