from io import StringIO

import numpy as np
import pytest
from django.core.management import call_command

from tests.factories import WorkerFactory
from tiers.models import Bm25Corpus, ShorttermChunk
from tiers.services.reembed import embedding_column_dimension
from tiers.services.shortterm import shortterm_memory_create

pytestmark = pytest.mark.django_db(transaction=True)


def test_reembed_rewrites_every_embedding_and_is_safe_to_rerun():
    worker = WorkerFactory()
    shortterm_memory_create(
        worker=worker, title="t", chunks=[{"content": f"fact {i}"} for i in range(7)]
    )
    ShorttermChunk.objects.update(embedding=[0.0] * 383 + [1.0])
    err = StringIO()
    out = StringIO()
    call_command("reembed", "--batch", "3", "--bm25", stdout=out, stderr=err)
    assert "Re-embedded 7 chunk(s)" in out.getvalue() and "7/7" in err.getvalue()
    for chunk in ShorttermChunk.objects.all():
        assert not np.allclose(chunk.embedding, [0.0] * 383 + [1.0])
    call_command("reembed", stdout=StringIO(), stderr=StringIO())
    assert Bm25Corpus.objects.get(worker=worker).doc_count == 7


def test_reembed_resizes_the_column_when_the_dimension_changes(settings):
    worker = WorkerFactory()
    shortterm_memory_create(
        worker=worker, title="t", chunks=[{"content": "fact one"}, {"content": "fact two"}]
    )
    settings.MEMORYHUB_EMBEDDINGS = {**settings.MEMORYHUB_EMBEDDINGS, "dimension": 64}
    try:
        call_command("reembed", stdout=StringIO(), stderr=StringIO())
        assert embedding_column_dimension() == 64
        assert all(len(c.embedding) == 64 for c in ShorttermChunk.objects.all())
    finally:
        settings.MEMORYHUB_EMBEDDINGS = {**settings.MEMORYHUB_EMBEDDINGS, "dimension": 384}
        call_command("reembed", stdout=StringIO(), stderr=StringIO())
    assert embedding_column_dimension() == 384
