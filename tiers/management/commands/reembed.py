from django.core.management.base import BaseCommand, CommandError

from memoryhub.errors import DomainError
from memoryhub.models import Worker
from memoryhub.progress import Progress
from tiers.models import ShorttermChunk, Tier
from tiers.search.corpus import LONGTERM_ENDED
from tiers.search.index import bm25_reindex_worker
from tiers.services.reembed import (
    chunks_reembed,
    configured_dimension,
    embedding_column_dimension,
    embedding_column_resize,
    hnsw_index_rebuild,
)


class Command(BaseCommand):
    help = (
        "Re-embed every shortterm chunk with the configured provider (after a change of model, "
        "MEMORYHUB_EMBEDDING_DIM or MEMORYHUB_EMBED_METADATA_KEYS; the column is resized when "
        "the dimension changed). "
        "Resumable: --missing-only continues an interrupted run."
    )

    def add_arguments(self, parser):
        parser.add_argument("--worker", help="only this worker's chunks (name)")
        parser.add_argument("--batch", type=int, default=256)
        parser.add_argument(
            "--missing-only", action="store_true", help="only chunks without an embedding"
        )
        parser.add_argument(
            "--bm25",
            action="store_true",
            help="also rebuild BM25 postings and statistics (after a change of "
            "MEMORYHUB_TS_CONFIG or MEMORYHUB_BM25_METADATA_KEYS)",
        )

    def handle(self, *args, **options):
        dimension = configured_dimension()
        stored = embedding_column_dimension()
        resized = False
        if stored != dimension:
            if options["worker"]:
                raise CommandError(
                    f"the column holds vector({stored}) "
                    f"but MEMORYHUB_EMBEDDING_DIM is {dimension}: "
                    "re-embed all workers (no --worker) to change the dimension"
                )
            self.stdout.write(
                f"Resizing embeddings from vector({stored}) to vector({dimension})..."
            )
            embedding_column_resize(dimension=dimension)
            resized = True
        chunks = ShorttermChunk.objects.order_by("pk")
        workers = Worker.objects.all()
        if options["worker"]:
            workers = workers.filter(name=options["worker"])
            if not workers.exists():
                raise CommandError(f"no worker named {options['worker']!r}")
            chunks = chunks.filter(worker__in=workers)
        if options["missing_only"] or resized:
            chunks = chunks.filter(embedding__isnull=True)
        ids = list(chunks.values_list("pk", flat=True))
        progress = Progress(len(ids), "re-embedding", stream=self.stderr._out)
        written = 0
        try:
            for start in range(0, len(ids), options["batch"]):
                batch = ids[start : start + options["batch"]]
                written += chunks_reembed(chunk_ids=batch)
                progress.advance(len(batch))
        except DomainError as exc:
            raise CommandError(f"{exc.detail} (rerun with --missing-only to continue)") from exc
        seconds = progress.finish()
        if resized:
            hnsw_index_rebuild()
        self.stdout.write(self.style.SUCCESS(f"Re-embedded {written} chunk(s) in {seconds:.1f}s."))
        if options["bm25"]:
            total = sum(
                bm25_reindex_worker(tier=key, worker_id=w.pk)
                for w in workers
                for key in (Tier.SHORTTERM, Tier.LONGTERM, LONGTERM_ENDED)
            )
            self.stdout.write(self.style.SUCCESS(f"Rebuilt BM25 postings of {total} chunk(s)."))
