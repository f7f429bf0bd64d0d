from django.core.management.base import BaseCommand, CommandError

from memoryhub.errors import DomainError
from memoryhub.progress import Progress
from memoryhub.services.audit import audit_record
from memoryhub.services.portability import read_export, worker_import


class Command(BaseCommand):
    help = (
        "Create a worker from an export_worker file, in one transaction (nothing is written "
        "when any row fails). Search indexes are rebuilt; chunks are embedded again when the "
        "export was made under another embedding model."
    )

    def add_arguments(self, parser):
        parser.add_argument("--in", dest="path", required=True, help="the export file")
        parser.add_argument("--name", help="the new worker's name (default: the exported one)")

    def handle(self, *args, **options):
        try:
            with open(options["path"], encoding="utf-8") as handle:
                lines = handle.readlines()
            _, rows = read_export(lines)
            progress = Progress(len(rows), "importing", stream=self.stderr._out)
            worker, id_map = worker_import(
                lines=lines, name=options["name"], progress=progress.advance
            )
        except (OSError, DomainError) as exc:
            raise CommandError(str(getattr(exc, "detail", exc))) from exc
        progress.finish()
        audit_record(
            action="worker.import",
            target=f"worker:{worker.pk}",
            worker=worker,
            detail={"file": str(options["path"]), "rows": len(rows)},
        )
        summary = ", ".join(f"{len(ids)} {label}" for label, ids in id_map.items() if ids)
        self.stdout.write(f"imported worker {worker.name} (id {worker.pk}): {summary}")
