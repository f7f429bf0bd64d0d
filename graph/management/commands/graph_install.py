from django.core.management.base import BaseCommand, CommandError

from graph.projection.outbox import projection_enabled


class Command(BaseCommand):
    help = (
        "Install the Neo4j constraints and indexes of the projection "
        "(neomodel labels + temporal uniqueness)."
    )

    def handle(self, *args, **options):
        if not projection_enabled():
            raise CommandError("NEO4J_URL is not set")
        from graph.projection.nodes import install_schema

        install_schema(stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS("Neo4j schema installed."))
