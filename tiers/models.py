from django.conf import settings
from django.db import models
from pgvector.django import HnswIndex, VectorField

from memoryhub.models import Worker


class ActiveMemory(models.Model):
    """Working memory of a worker: markdown sections defined by a YAML template.

    ``sections`` maps each section id of the template to
    ``{"content": markdown, "update_count": int}``; the count grows by one with every
    update and is what the migration to the shortterm tier looks at.
    """

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="active_memories")
    title = models.CharField(max_length=500)
    description = models.TextField(blank=True, default="")
    template_content = models.TextField(help_text="YAML template defining the sections")
    sections = models.JSONField(default=dict)
    metadata = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        verbose_name_plural = "active memories"
        indexes = [models.Index(fields=["worker", "-updated_at"], name="active_worker_updated_idx")]

    def __str__(self) -> str:
        return self.title

    @property
    def total_update_count(self) -> int:
        return sum(int(section.get("update_count", 0)) for section in self.sections.values())


class Tier(models.TextChoices):
    SHORTTERM = "shortterm", "Shortterm"
    LONGTERM = "longterm", "Longterm"


class ExtractionStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DONE = "done", "Done"
    FAILED = "failed", "Failed (will retry)"


class ShorttermMemory(models.Model):
    """A detailed, searchable memory: a title, a summary and ordered chunks."""

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="shortterm_memories")
    title = models.CharField(max_length=500)
    summary = models.TextField(blank=True, default="")
    metadata = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_updated = models.DateTimeField(auto_now=True)
    # Entity extraction of the memory's content (graph app). A failed extraction never
    # loses the memory: the extraction sweep retries it.
    extraction_status = models.CharField(
        max_length=16,
        choices=ExtractionStatus.choices,
        default=ExtractionStatus.PENDING,
        db_index=True,
    )
    extraction_attempts = models.PositiveSmallIntegerField(default=0)
    extraction_error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-last_updated", "-id"]
        verbose_name_plural = "shortterm memories"
        indexes = [
            models.Index(fields=["worker", "-last_updated"], name="shortterm_worker_updated_idx")
        ]

    def __str__(self) -> str:
        return self.title


class ShorttermChunk(models.Model):
    """One searchable piece of a shortterm memory, with its embedding.

    ``worker`` repeats ``memory.worker`` so that search filters on one column.
    BM25 postings and statistics (Bm25Posting, Bm25Term, Bm25Corpus) are written in the
    same transaction as the chunk by ``tiers.search.index``.
    """

    # No single-column indexes: (memory, chunk_order) and (worker, memory) serve both
    # columns, and every index is one more write per chunk.
    memory = models.ForeignKey(
        ShorttermMemory, on_delete=models.CASCADE, related_name="chunks", db_index=False
    )
    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="+", db_index=False)
    chunk_order = models.PositiveIntegerField()
    content = models.TextField()
    embedding = VectorField(
        dimensions=settings.MEMORYHUB_EMBEDDINGS["dimension"], null=True, blank=True
    )
    metadata = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["memory_id", "chunk_order"]
        constraints = [
            models.UniqueConstraint(
                fields=["memory", "chunk_order"], name="shortterm_chunk_order_unique"
            )
        ]
        indexes = [
            models.Index(fields=["worker", "memory"], name="shortterm_chunk_worker_idx"),
            HnswIndex(
                name="shortterm_chunk_hnsw",
                fields=["embedding"],
                # Measured at 100k chunks (README, search benchmark): m=12 and
                # ef_construction=32 insert ~1.8x faster than 16/64 and, with
                # hnsw.ef_search=200, keep recall@10 at 0.97 against exact search.
                m=12,
                ef_construction=32,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.memory_id}#{self.chunk_order}"


class Bm25Corpus(models.Model):
    """Corpus statistics of one worker's tier: how many chunks, how many lexemes.

    (Here and in the two models below the worker's own index is left out: the unique or
    term index starts with the worker.)"""

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="+", db_index=False)
    tier = models.CharField(max_length=16, choices=Tier.choices)
    doc_count = models.BigIntegerField(default=0)
    total_length = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["worker", "tier"], name="bm25_corpus_unique")
        ]


class Bm25Term(models.Model):
    """Document frequency of one lexeme in one worker's tier."""

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="+", db_index=False)
    tier = models.CharField(max_length=16, choices=Tier.choices)
    term = models.TextField()
    df = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["worker", "tier", "term"], name="bm25_term_unique")
        ]


class Bm25Posting(models.Model):
    """Inverted index: lexeme → chunk with its term frequency and the chunk's length.

    The covering index makes scoring a query an index-only scan of its terms' postings.
    """

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="+", db_index=False)
    tier = models.CharField(max_length=16, choices=Tier.choices)
    term = models.TextField()
    chunk_id = models.BigIntegerField()
    tf = models.IntegerField()
    doc_length = models.IntegerField()

    class Meta:
        indexes = [
            models.Index(
                fields=["worker", "tier", "term"],
                include=["chunk_id", "tf", "doc_length"],
                name="bm25_posting_term_idx",
            ),
            models.Index(
                fields=["tier", "chunk_id"],
                include=["term", "tf", "doc_length"],
                name="bm25_posting_chunk_idx",
            ),
        ]
