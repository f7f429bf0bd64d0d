import hashlib

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


class ActiveSectionReading(models.Model):
    """What consolidation reads of an active section, made in the background when the agent
    wrote it (``consolidation.services.section_readings``) so that the migration decides
    on it without parsing or embedding the section then: its embedding, its parse with the
    claims read of it (``memoryhub.nlp.stored_form``) and its graph as the decision reads it
    (``extract_quick``) and as a merge or a conflict keeps it (``extract``). One row per
    section, replaced when the section is written again; used only while ``content_hash``
    is the section's content and ``version`` the running parser's and embedder's."""

    memory = models.ForeignKey(ActiveMemory, on_delete=models.CASCADE, related_name="readings")
    section_id = models.TextField()
    content_hash = models.CharField(max_length=64)
    version = models.CharField(max_length=300)
    embedding = VectorField(dimensions=settings.MEMORYHUB_EMBEDDINGS["dimension"])
    parse = models.BinaryField()
    quick_graph = models.JSONField(default=dict)
    graph = models.JSONField(default=dict)
    made_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["memory", "section_id"], name="active_section_reading_unique"
            )
        ]

    def __str__(self) -> str:
        return f"reading of {self.memory_id}/{self.section_id}"

    @staticmethod
    def hash_of(content: str) -> str:
        """What ties a reading to the content it was made from."""
        return hashlib.sha256(content.encode()).hexdigest()


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


class ShorttermChunkParse(models.Model):
    """A chunk's English parse (``memoryhub.nlp.stored_form``, ~1.3 kB), kept when its
    content was parsed anyway (the section it was written from, or a consolidation that
    judged it) so that judging it again does not parse it again. A table of its own: the
    chunk rows that every similarity scan reads stay as small as they were. Dropped when
    the content changes; unreadable (and parsed anew) after the parser changes."""

    # The database deletes the parse with its chunk (ON DELETE CASCADE, migration 0014), so
    # that deleting chunks stays one DELETE rather than Django collecting every chunk row.
    chunk = models.OneToOneField(
        ShorttermChunk,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        primary_key=True,
        related_name="parse",
    )
    data = models.BinaryField()

    def __str__(self) -> str:
        return f"parse of chunk {self.chunk_id}"


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


class MemoryType(models.TextChoices):
    """Seed 004's kinds of longterm memory: what happened (episodic), what is known
    (semantic), how to do something (procedural)."""

    EPISODIC = "episodic", "Episodic"
    SEMANTIC = "semantic", "Semantic"
    PROCEDURAL = "procedural", "Procedural"


class LongtermChunk(models.Model):
    """One version of a consolidated chunk (seed 000: there is no longterm memory table).

    A version is never overwritten: promoting its source again closes it (``end_date``)
    and starts the next. The chain of versions of one source chunk is (worker,
    ``shortterm_memory_id``, ``chunk_order``); the source id is kept as a plain number so
    the versions outlive the shortterm memory (retention removes it after promotion), and
    ``title`` keeps the source's title. Current versions have ``end_date`` NULL.
    """

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="+", db_index=False)
    shortterm_memory_id = models.BigIntegerField(help_text="the source shortterm memory")
    chunk_order = models.PositiveIntegerField(help_text="the source chunk's position")
    title = models.CharField(max_length=500)
    content = models.TextField()
    content_hash = models.CharField(max_length=64, editable=False)
    embedding = VectorField(
        dimensions=settings.MEMORYHUB_EMBEDDINGS["dimension"], null=True, blank=True
    )
    confidence = models.FloatField(help_text="the promotion score, 0-1")
    importance = models.FloatField(help_text="semantic importance of the source, 0-10")
    memory_type = models.CharField(
        max_length=16, choices=MemoryType.choices, blank=True, default=""
    )
    start_date = models.DateTimeField()
    end_date = models.DateTimeField(null=True, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["shortterm_memory_id", "chunk_order", "-start_date"]
        constraints = [
            # One current version per source chunk.
            models.UniqueConstraint(
                fields=["worker", "shortterm_memory_id", "chunk_order"],
                condition=models.Q(end_date__isnull=True),
                name="longterm_chunk_one_current",
            ),
            models.CheckConstraint(
                condition=models.Q(end_date__isnull=True)
                | models.Q(end_date__gte=models.F("start_date")),
                name="longterm_chunk_end_after_start",
            ),
            models.CheckConstraint(
                condition=models.Q(confidence__gte=0, confidence__lte=1),
                name="longterm_chunk_confidence_range",
            ),
        ]
        indexes = [
            # History of a source, and "as of" reads: the versions valid at a time.
            models.Index(
                fields=["worker", "shortterm_memory_id", "chunk_order", "start_date"],
                name="longterm_chunk_source_idx",
            ),
            # Covering (id included): "valid at t" reads the ids from the index alone.
            models.Index(
                fields=["worker", "start_date", "end_date"],
                include=["id"],
                name="longterm_chunk_valid_idx",
            ),
            # Current versions only (the default of every longterm read).
            models.Index(
                fields=["worker", "start_date"],
                condition=models.Q(end_date__isnull=True),
                name="longterm_chunk_current_idx",
            ),
            HnswIndex(
                name="longterm_chunk_hnsw",
                fields=["embedding"],
                m=12,
                ef_construction=32,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.shortterm_memory_id}#{self.chunk_order}@{self.start_date:%Y-%m-%d %H:%M}"

    @property
    def is_current(self) -> bool:
        return self.end_date is None


class UsageKind(models.TextChoices):
    """What an agent reports about a shortterm memory (seed 001's usage signals)."""

    ACCESS = "access", "Access"
    CONFIRM = "confirm", "Confirmation"
    CORRECT = "correct", "Correction"
    CONTRADICT = "contradict", "Contradiction"
    MARK_IMPORTANT = "mark_important", "Marked important"
    USER_MENTION = "user_mention", "User mention"
    REINFORCE = "reinforce", "Reinforced by a merged section"


class MemoryEvent(models.Model):
    """One usage signal on a shortterm memory (or one of its chunks): who, when, in which
    session. ``MemoryUsage`` keeps the running summary that scoring reads."""

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="+", db_index=False)
    memory = models.ForeignKey(ShorttermMemory, on_delete=models.CASCADE, related_name="events")
    chunk_id = models.BigIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=16, choices=UsageKind.choices)
    session_id = models.CharField(max_length=200, blank=True, default="")
    actor = models.CharField(max_length=200, blank=True, default="", help_text="token or user")
    detail = models.TextField(blank=True, default="")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["worker", "-created_at"], name="memory_event_worker_idx")]

    def __str__(self) -> str:
        return f"{self.kind} on {self.memory_id}"


class MemoryUsage(models.Model):
    """The summary of a shortterm memory's usage signals (seed 001's metadata): kept up to
    date in the transaction that records each event."""

    MAX_TIMES = 100  # access times kept for the time-spread bonus (the latest)
    MAX_SESSIONS = 100

    memory = models.OneToOneField(
        ShorttermMemory, on_delete=models.CASCADE, primary_key=True, related_name="usage"
    )
    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="+", db_index=False)
    access_count = models.PositiveIntegerField(default=0)
    sessions = models.JSONField(default=list, blank=True)
    session_count = models.PositiveIntegerField(default=0)
    access_times = models.JSONField(default=list, blank=True)
    first_accessed_at = models.DateTimeField(null=True, blank=True)
    last_accessed_at = models.DateTimeField(null=True, blank=True)
    confirmations = models.PositiveIntegerField(default=0)
    corrections = models.PositiveIntegerField(default=0)
    contradictions = models.PositiveIntegerField(default=0)
    last_contradiction_at = models.DateTimeField(null=True, blank=True)
    reinforcements = models.PositiveIntegerField(default=0)
    user_mentions = models.PositiveIntegerField(default=0)
    importance_marks = models.PositiveIntegerField(default=0)
    importance = models.FloatField(default=5.0, help_text="importance level, 0-10")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "memory usage"
        indexes = [models.Index(fields=["worker", "-updated_at"], name="memory_usage_worker_idx")]

    def __str__(self) -> str:
        return f"usage of {self.memory_id}"

    @property
    def reinforcement_count(self) -> int:
        """Seed 001's reinforcement: every time the memory was stated again (a section
        merged into it, a confirmation, the user bringing it up)."""
        return self.reinforcements + self.confirmations + self.user_mentions
