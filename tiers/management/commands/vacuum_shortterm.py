import time

from django.core.management.base import BaseCommand

from tiers.services.maintenance import shortterm_tables_vacuum


class Command(BaseCommand):
    help = (
        "Vacuum (analyze) the shortterm chunk and BM25 tables; "
        "--reindex also rebuilds the HNSW graph "
        "(what a large delete queues on the task cluster)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--reindex", action="store_true", help="rebuild the HNSW index (REINDEX CONCURRENTLY)"
        )

    def handle(self, *args, **options):
        started = time.perf_counter()

        def step(text: str) -> None:
            self.stdout.write(f"[{time.perf_counter() - started:6.1f}s] {text}")
            self.stdout.flush()

        done = shortterm_tables_vacuum(reindex=options["reindex"], log=step)
        step(
            f"done: {done['live_chunks']} chunks; "
            f"HNSW index {'rebuilt' if done['reindexed'] else 'kept'}"
        )
