from datetime import timedelta

from django.core.management.base import BaseCommand

from graph.services.extraction import extraction_sweep, memory_extract_graph


class Command(BaseCommand):
    help = (
        "Extract entities and relationships: every pending or failed memory now (the sweep "
        "without its grace for queued tasks), or one memory."
    )

    def add_arguments(self, parser):
        parser.add_argument("--memory", type=int, help="re-extract this shortterm memory")
        parser.add_argument("--limit", type=int, default=1000)

    def handle(self, *args, **options):
        if options["memory"]:
            self.stdout.write(
                f"memory {options['memory']}: {memory_extract_graph(memory_id=options['memory'])}"
            )
            return
        outcome = extraction_sweep(limit=options["limit"], grace=timedelta(0))
        self.stdout.write(
            f"extraction sweep: {outcome['done']} done, {outcome['failed']} failed, "
            f"{outcome['gone']} gone"
        )
