"""export_worker / import_worker: a worker's whole memory round-trips exactly."""

import io
import json
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from consolidation.services.shortterm_to_longterm import promotion_check
from graph.models import Entity, Relationship
from memoryhub.errors import ConflictError, DomainError
from memoryhub.models import Worker
from memoryhub.services.portability import portable_models, worker_export, worker_import
from review.models import MergeConflict
from review.services.conflicts import conflict_resolve
from tests.factories import TASK_TEMPLATE, make_conflict
from tiers.models import Bm25Posting, LongtermChunk, ShorttermChunk, Tier
from tiers.search import search
from tiers.services.active import active_memory_create
from tiers.services.shortterm import shortterm_chunks_update, shortterm_memory_create
from tiers.services.usage import usage_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def rich_worker(worker, staff_user):
    """A worker with something in every table an export covers."""
    active_memory_create(
        worker=worker,
        title="Sprint 12",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "Ship the billing migration"},
    )
    memory = shortterm_memory_create(
        worker=worker,
        title="Billing",
        content="Maria owns the billing service. It runs on Postgres 15 in eu-west-1.",
        metadata={"source": "notes"},
    )
    usage_record(worker=worker, memory_id=memory.pk, kind="access", session_id="s1")
    usage_record(worker=worker, memory_id=memory.pk, kind="mark_important")
    promotion_check(memory=memory, now=timezone.now() - timedelta(days=2))
    chunk = memory.chunks.get()
    shortterm_chunks_update(
        memory=memory,
        updates=[{"chunk_id": chunk.pk, "new_content": "Maria owns billing. It runs on MySQL 8."}],
    )
    promotion_check(memory=memory)
    resolved = make_conflict(worker)
    conflict_resolve(conflict=resolved, decision="keep_existing", user=staff_user, note="ok")
    make_conflict(worker, existing="Lunch is at noon.", incoming="Lunch is at one.")
    return worker


def _export(worker) -> str:
    out = io.StringIO()
    worker_export(worker=worker, out=out)
    return out.getvalue()


def _normalised(text: str, id_map: dict | None = None) -> list[tuple]:
    """The rows of an export with the ids mapped (old → new), for comparison."""
    specs = {spec.model: spec for spec in portable_models()}
    rows = [json.loads(line) for line in text.splitlines()[1:]]
    result = []
    for row in rows:
        spec = specs[row["model"]]
        fields = dict(row["fields"])
        if id_map is not None:
            from django.apps import apps

            model = apps.get_model(row["model"])
            for f in model._meta.concrete_fields:
                value = fields.get(f.attname)
                if f.is_relation and value is not None:
                    label = f.related_model._meta.label_lower
                    if label in id_map:
                        fields[f.attname] = id_map[label][value]
                elif f.attname in spec.ids and value is not None:
                    fields[f.attname] = id_map[spec.ids[f.attname]].get(value, value)
            for name, path, target in spec.json:
                from memoryhub.services.portability import _remap_json

                fields[name] = _remap_json(fields[name], path, id_map[target])
            for name in spec.fresh:
                fields.pop(name)
        else:
            for name in spec.fresh:
                fields.pop(name)
        fields.pop("worker_id", None)
        result.append((row["model"], json.dumps(fields, sort_keys=True)))
    return result


def test_a_worker_round_trips_exactly(rich_worker):
    original = _export(rich_worker)
    header = json.loads(original.splitlines()[0])
    assert header["counts"]["tiers.longtermchunk"] == 2
    assert header["counts"]["review.conflictresolution"] == 1
    copy, id_map = worker_import(lines=original.splitlines(), name="copy")
    assert copy.name == "copy" and copy.created_at == rich_worker.created_at
    again = _export(copy)
    # every row of every table, every field (timestamps, embeddings, JSON), ids mapped
    assert _normalised(again) == _normalised(original, id_map)
    # the copy is searchable (BM25 rebuilt) in both tiers, and versions keep their history
    assert Bm25Posting.objects.filter(worker=copy, tier=Tier.SHORTTERM).exists()
    hits = search(worker=copy, query="MySQL billing", corpus="longterm", mode="bm25")
    assert [h.content for h in hits] == ["Maria owns billing. It runs on MySQL 8."]
    source = id_map["tiers.shorttermmemory"]
    assert set(
        LongtermChunk.objects.filter(worker=copy).values_list("shortterm_memory_id", flat=True)
    ) <= set(source.values())
    longterm_maria = Entity.objects.get(worker=copy, tier=Tier.LONGTERM, name="Maria")
    assert set(longterm_maria.metadata["sources"]) <= set(source.values())
    pending = MergeConflict.objects.get(worker=copy, status="pending")
    chunk_ids = {c["chunk_id"] for c in pending.conflicting_chunks}
    assert chunk_ids <= set(ShorttermChunk.objects.filter(worker=copy).values_list("pk", flat=True))
    assert (
        Relationship.objects.filter(worker=copy).count()
        == Relationship.objects.filter(worker=rich_worker).count()
    )


def test_import_reembeds_under_another_model(rich_worker):
    lines = _export(rich_worker).splitlines()
    header = json.loads(lines[0])
    header["embedder"] = "local:other-model:384"
    rows = []
    for line in lines[1:]:
        row = json.loads(line)
        if row["model"] in ("tiers.shorttermchunk", "tiers.longtermchunk"):
            row["fields"]["embedding"] = [0.0] * 383 + [1.0]
        rows.append(json.dumps(row))
    copy, _ = worker_import(lines=[json.dumps(header), *rows], name="reembedded")
    for chunk in [
        *ShorttermChunk.objects.filter(worker=copy),
        *LongtermChunk.objects.filter(worker=copy),
    ]:
        assert list(chunk.embedding)[:383] != [0.0] * 383


def test_bad_files_and_taken_names_write_nothing(rich_worker):
    text = _export(rich_worker)
    with pytest.raises(ConflictError):
        worker_import(lines=text.splitlines())  # the name exists
    with pytest.raises(DomainError):
        worker_import(lines=["{}"], name="x")
    broken = text.splitlines()
    broken[3] = "{not json"
    with pytest.raises(DomainError, match="line 4"):
        worker_import(lines=broken, name="x")
    assert not Worker.objects.filter(name="x").exists()


def test_the_commands(rich_worker, tmp_path):
    path = tmp_path / "backup.jsonl"
    err = io.StringIO()
    call_command("export_worker", "--worker", rich_worker.name, "--out", str(path), stderr=err)
    assert "exported" in err.getvalue() and path.read_text().startswith('{"format"')
    out = io.StringIO()
    call_command("import_worker", "--in", str(path), "--name", "restored", stdout=out, stderr=err)
    assert "imported worker restored" in out.getvalue()
    with pytest.raises(CommandError, match="exists"):
        call_command("import_worker", "--in", str(path), "--name", "restored", stderr=err)
    with pytest.raises(CommandError):
        call_command("export_worker", "--worker", "nobody", "--out", str(path))
