"""Re-embedding after a change of embedding model or dimension, and BM25 re-indexing."""

from django.conf import settings
from django.db import connection, transaction

from memoryhub.providers.embeddings import binary_cursor, get_embedder, vector_array
from tiers.models import ShorttermChunk
from tiers.search.index import embedding_text

HNSW_INDEX = "shortterm_chunk_hnsw"


def embedding_column_dimension() -> int | None:
    """The dimension of the stored ``vector(n)`` column (None when untyped)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT atttypmod FROM pg_attribute
               WHERE attrelid = %s::regclass AND attname = 'embedding'""",
            [ShorttermChunk._meta.db_table],
        )
        row = cursor.fetchone()
    return row[0] if row and row[0] > 0 else None


@transaction.atomic
def embedding_column_resize(*, dimension: int) -> None:
    """Change the column to ``vector(dimension)``: every embedding becomes NULL (to be
    re-embedded) and the HNSW index is rebuilt afterwards by ``hnsw_index_rebuild``."""
    table = ShorttermChunk._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX IF EXISTS {HNSW_INDEX}")
        cursor.execute(f"UPDATE {table} SET embedding = NULL")
        cursor.execute(f"ALTER TABLE {table} ALTER COLUMN embedding TYPE vector({int(dimension)})")


def hnsw_index_rebuild() -> None:
    table = ShorttermChunk._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX IF EXISTS {HNSW_INDEX}")
        cursor.execute(
            f"CREATE INDEX {HNSW_INDEX} ON {table} USING hnsw (embedding vector_cosine_ops) "
            "WITH (m = 12, ef_construction = 32)"
        )


def chunks_reembed(*, chunk_ids: list[int], model=ShorttermChunk) -> int:
    """Embed the chunks' current content again (shortterm chunks, or longterm versions
    with ``model=LongtermChunk``). Embeds outside the transaction; a chunk whose content
    changed meanwhile is skipped (its own update embedded it). Returns how many were
    written. Safe to run twice."""
    rows = list(model.objects.filter(pk__in=chunk_ids).values_list("pk", "content", "metadata"))
    if not rows:
        return 0
    vectors = get_embedder().embed_documents(
        [embedding_text(content, metadata) for _, content, metadata in rows]
    )
    rows = [(pk, content) for pk, content, _ in rows]
    with transaction.atomic():
        current = {
            c.pk: c for c in model.objects.select_for_update().filter(pk__in=[pk for pk, _ in rows])
        }
        ids, kept = [], []
        for offset, (pk, content) in enumerate(rows):
            chunk = current.get(pk)
            if chunk is None or chunk.content != content:
                continue
            ids.append(pk)
            kept.append(offset)
        # One binary vector[] parameter; each vector carries its own dimension, which the
        # column's current vector(n) checks (the model's field may still carry the old one
        # while the column is being resized).
        if ids:
            with binary_cursor() as cursor:
                cursor.execute(
                    f"""UPDATE {model._meta.db_table} c SET embedding = d.e
                        FROM unnest(%s::bigint[], %s::vector[]) AS d(id, e) WHERE c.id = d.id""",
                    [ids, vector_array(vectors[kept], cursor)],
                )
        written = len(ids)
    return written


def configured_dimension() -> int:
    return settings.MEMORYHUB_EMBEDDINGS["dimension"]
