"""What the tiers rebuild after a worker is imported (``memoryhub.services.portability``):
the BM25 postings of both tiers, and the embeddings when the export was made under
another embedding model."""

from memoryhub.models import Worker
from memoryhub.services.portability import embedder_signature
from tiers.models import LongtermChunk, ShorttermChunk, Tier
from tiers.search.corpus import LONGTERM_ENDED
from tiers.search.index import bm25_reindex_worker
from tiers.services.reembed import chunks_reembed

REEMBED_BATCH = 256


def tiers_after_import(*, worker: Worker, id_map: dict, header: dict) -> dict:
    reembedded = 0
    if header.get("embedder") != embedder_signature():
        for model in (ShorttermChunk, LongtermChunk):
            ids = list(model.objects.filter(worker=worker).values_list("pk", flat=True))
            for start in range(0, len(ids), REEMBED_BATCH):
                reembedded += chunks_reembed(
                    chunk_ids=ids[start : start + REEMBED_BATCH], model=model
                )
    indexed = sum(
        bm25_reindex_worker(tier=tier, worker_id=worker.pk)
        for tier in (Tier.SHORTTERM, Tier.LONGTERM, LONGTERM_ENDED)
    )
    return {"reembedded": reembedded, "indexed": indexed}
