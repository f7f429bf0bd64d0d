"""Backup and portability: one worker's whole memory as JSONL, and back.

The foundation imports no app: each app declares on its ``AppConfig`` what of a worker it
holds (``portable``: its models in dependency order, how a row reaches the worker, which
plain-number or JSON fields name other exported rows) and what to rebuild after an import
(``after_import(worker=, id_map=, header=)``: search indexes, embeddings under another
model, the graph projection). The file:

- line 1, a header: ``{"format": "memoryhub-worker", "version": 1, "worker": {...},
  "embedder": "<provider>:<model>:<dimension>", "exported_at": ..., "counts": {...}}``
- then one line per row: ``{"model": "app.model", "pk": old id, "fields": {...}}`` with
  foreign keys as old ids; the importer creates every row anew (new ids), maps each
  reference, keeps every timestamp, and does it all in one transaction.

Tokens, idempotency records, the graph outbox and the BM25 postings are not exported:
tokens are issued anew, the rest is rebuilt.
"""

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime

import numpy as np
from django.apps import apps
from django.conf import settings
from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from memoryhub.contributions import contributions
from memoryhub.errors import ConflictError, DomainError
from memoryhub.models import Worker

FORMAT, VERSION = "memoryhub-worker", 1
BATCH = 1000


@dataclass(frozen=True)
class PortableModel:
    model: str  # "app.model"
    worker: str = "worker"  # the lookup from a row to its worker
    ids: dict = field(default_factory=dict)  # plain number field → model it names
    json: tuple = ()  # (field, path, model): ids inside JSON, path keys, "*" for list items
    fresh: tuple = ()  # unique plain-number fields given a new value from the table's sequence


def portable_models() -> list[PortableModel]:
    specs = []
    for declared in contributions("portable"):
        specs += [PortableModel(**spec) for spec in declared]
    return specs


def embedder_signature() -> str:
    config = settings.MEMORYHUB_EMBEDDINGS
    model = config.get("model", "") if config["provider"] == "openai" else ""
    return f"{config['provider']}:{model}:{config['dimension']}"


def _plain(value):
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, np.ndarray):
        return [float(x) for x in value]
    if hasattr(value, "to_list"):  # pgvector's Vector
        return [float(x) for x in value.to_list()]
    return value


def _concrete_fields(model) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if not f.primary_key or f.is_relation]


def worker_export(*, worker: Worker, out, progress: Callable[[int], None] | None = None) -> dict:
    """Write the worker's memory to the text stream ``out``; returns the row counts."""
    specs = portable_models()
    counts = {
        spec.model: apps.get_model(spec.model).objects.filter(**{spec.worker: worker}).count()
        for spec in specs
    }
    header = {
        "format": FORMAT,
        "version": VERSION,
        "worker": {
            "name": worker.name,
            "description": worker.description,
            "metadata": worker.metadata,
            "created_at": worker.created_at.isoformat(),
        },
        "embedder": embedder_signature(),
        "exported_at": timezone.now().isoformat(),
        "counts": counts,
    }
    out.write(json.dumps(header) + "\n")
    for spec in specs:
        model = apps.get_model(spec.model)
        fields = _concrete_fields(model)
        queryset = model.objects.filter(**{spec.worker: worker}).order_by("pk")
        for row in queryset.iterator(chunk_size=BATCH):
            data = {f.attname: _plain(f.value_from_object(row)) for f in fields}
            out.write(json.dumps({"model": spec.model, "pk": row.pk, "fields": data}) + "\n")
            if progress:
                progress(1)
    return counts


def read_export(lines: Iterable[str]) -> tuple[dict, list[dict]]:
    """The header and the rows of an export, checked."""
    iterator = iter(lines)
    try:
        header = json.loads(next(iterator))
    except (StopIteration, json.JSONDecodeError) as exc:
        raise DomainError("not a MemoryHub worker export (no header line)") from exc
    if header.get("format") != FORMAT or header.get("version") != VERSION:
        raise DomainError(
            f"not a {FORMAT} export of version {VERSION}: "
            f"{header.get('format')!r} {header.get('version')!r}"
        )
    known = {spec.model for spec in portable_models()}
    rows = []
    for number, line in enumerate(iterator, start=2):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DomainError(f"line {number} is not JSON: {exc}") from exc
        if row.get("model") not in known:
            raise DomainError(f"line {number}: unknown model {row.get('model')!r}")
        rows.append(row)
    return header, rows


def _remap_json(value, path: list[str], target: dict):
    """Replace the ids at ``path`` inside a JSON value with their new ids (ids that were
    not exported stay as they are: a removed memory named in a log)."""
    if not path:
        return target.get(value, value) if isinstance(value, int) else value
    key, rest = path[0], path[1:]
    if key == "*":
        if isinstance(value, list):
            return [_remap_json(item, rest, target) for item in value]
        return value
    if isinstance(value, dict) and key in value:
        return {**value, key: _remap_json(value[key], rest, target)}
    return value


def _value(field_: models.Field, raw):
    if raw is None:
        return None
    if isinstance(field_, models.DateTimeField):
        return parse_datetime(raw)
    if isinstance(field_, models.DateField):
        return date.fromisoformat(raw)
    return raw


def _fresh_number(model, field_name: str) -> int:
    """A number no row of ``model`` holds in ``field_name`` (ids of rows that were moved
    elsewhere, like an undone decision's, must stay unique)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT coalesce(max({field_name}), 0) + 1 FROM {model._meta.db_table}")
        return cursor.fetchone()[0]


def worker_import(
    *,
    lines: Iterable[str],
    name: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Worker, dict]:
    """Create a worker from an export (under ``name``, or the exported name) with every
    row; one transaction. Returns the worker and ``{model: {old id: new id}}``."""
    header, rows = read_export(lines)
    name = name or header["worker"]["name"]
    if Worker.objects.filter(name=name).exists():
        raise ConflictError(
            f"a worker named {name!r} exists; import under another --name",
            fields={"name": "taken"},
        )
    specs = {spec.model: spec for spec in portable_models()}
    user_model = apps.get_model(settings.AUTH_USER_MODEL)
    users = set(user_model.objects.values_list("pk", flat=True))
    id_map: dict[str, dict[int, int]] = {label: {} for label in specs}
    with transaction.atomic():
        worker = Worker.objects.create(
            name=name,
            description=header["worker"].get("description", ""),
            metadata=header["worker"].get("metadata") or {},
        )
        Worker.objects.filter(pk=worker.pk).update(
            created_at=parse_datetime(header["worker"]["created_at"])
        )
        worker.refresh_from_db()
        by_model: dict[str, list[dict]] = {}
        for row in rows:
            by_model.setdefault(row["model"], []).append(row)
        for label, spec in specs.items():
            model_rows = by_model.get(label, [])
            if not model_rows:
                continue
            model = apps.get_model(label)
            _import_rows(model, spec, model_rows, worker, id_map, users)
            if progress:
                progress(len(model_rows))
        for hook in contributions("after_import"):
            hook(worker=worker, id_map=id_map, header=header)
    return worker, id_map


def _import_rows(model, spec: PortableModel, rows, worker, id_map, users) -> None:
    fields = _concrete_fields(model)
    auto_times = [
        f.attname
        for f in fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    fresh = {name: _fresh_number(model, name) for name in spec.fresh}
    instances = []
    for row in rows:
        values = {}
        for f in fields:
            raw = row["fields"].get(f.attname)
            if f.is_relation and raw is not None:
                target = f.related_model
                if target is Worker:
                    raw = worker.pk
                elif target._meta.label_lower in id_map:
                    raw = id_map[target._meta.label_lower].get(raw)
                elif target._meta.label_lower == settings.AUTH_USER_MODEL.lower():
                    raw = raw if raw in users else None
                else:
                    raw = None  # tokens and other unexported rows
            elif f.attname in spec.ids and raw is not None:
                raw = id_map.get(spec.ids[f.attname], {}).get(raw, raw)
            values[f.attname] = _value(f, raw)
        for field_name, path, target in spec.json:
            values[field_name] = _remap_json(values[field_name], path, id_map.get(target, {}))
        for field_name in spec.fresh:
            values[field_name] = fresh[field_name]
            fresh[field_name] += 1
        instances.append(model(**values))
    created = model.objects.bulk_create(instances, batch_size=BATCH)
    if auto_times:  # bulk_create stamped them now: give them back their exported times
        for instance, row in zip(created, rows, strict=True):
            for name in auto_times:
                setattr(instance, name, _value(model._meta.get_field(name), row["fields"][name]))
        model.objects.bulk_update(created, auto_times, batch_size=BATCH)
    label = model._meta.label_lower
    for instance, row in zip(created, rows, strict=True):
        id_map[label][row["pk"]] = instance.pk
