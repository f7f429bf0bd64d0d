from django.core.management.base import BaseCommand, CommandError

from graph.models import Entity, Relationship
from graph.projection.outbox import projection_enabled
from graph.projection.sync import graph_resync
from memoryhub.progress import Progress


class Command(BaseCommand):
    help = "Rebuild the Neo4j projection from PostgreSQL (wipe, then MERGE everything)."

    def handle(self, *args, **options):
        if not projection_enabled():
            raise CommandError("NEO4J_URL is not set: there is no projection to rebuild")
        progress = Progress(
            Entity.objects.count() + Relationship.objects.count(), "resync", stream=self.stderr._out
        )
        try:
            result = graph_resync(progress=progress.advance)
        except Exception as exc:  # noqa: BLE001 - report any driver error plainly
            raise CommandError(f"resync failed: {exc}") from exc
        progress.finish()
        self.stdout.write(
            self.style.SUCCESS(
                f"Projected {result['projected']} rows; "
                f"Neo4j holds {result['entities']} entities and "
                f"{result['relationships']} relationships."
            )
        )
