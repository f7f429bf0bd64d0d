"""Embedding providers. The OpenAI-compatible one is tested against a local HTTP server."""

import json

import numpy as np
import pytest
from werkzeug import Response

from memoryhub.providers.embeddings import (
    EmbeddingError,
    HashEmbeddings,
    LocalEmbeddings,
    LocalInt8Embeddings,
    build_provider,
    get_embedder,
    one_model_thread,
)
from tests.helpers import assert_error
from tiers.models import ShorttermChunk, ShorttermMemory


def test_hash_embeddings_are_deterministic_and_normalised():
    provider = HashEmbeddings(64)
    first = provider.embed_documents(["the deploy pipeline", "budget review"])
    again = provider.embed_documents(["the deploy pipeline", "budget review"])
    assert first.shape == (2, 64) and np.allclose(first, again)
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0)
    close = provider.embed_documents(["the deploy pipeline runs"])[0]
    assert float(first[0] @ close) > float(first[1] @ close)


@pytest.fixture
def openai_settings(settings, httpserver):
    settings.MEMORYHUB_EMBEDDINGS = {
        "provider": "openai",
        "dimension": 384,
        "batch_size": 2,
        "url": httpserver.url_for("/v1"),
        "model": "fake-embed",
        "api_key": "sk-test",
    }
    return settings


def _vectors(request, dimension=384):
    texts = json.loads(request.data)["input"]
    rows = [
        {"index": i, "embedding": list(np.random.default_rng(len(t)).random(dimension))}
        for i, t in enumerate(texts)
    ]
    return Response(json.dumps({"data": rows[::-1]}), content_type="application/json")  # any order


def test_openai_provider_batches_and_orders(openai_settings, httpserver):
    seen = []

    def handler(request):
        seen.append((request.headers.get("Authorization"), json.loads(request.data)))
        return _vectors(request)

    httpserver.expect_request("/v1/embeddings", method="POST").respond_with_handler(handler)
    vectors = get_embedder().embed_documents(["a", "bb", "ccc"])
    assert vectors.shape == (3, 384)
    assert [body["input"] for _, body in seen] == [["a", "bb"], ["ccc"]]
    assert seen[0][0] == "Bearer sk-test" and seen[0][1]["model"] == "fake-embed"
    expected = np.random.default_rng(2).random(384)
    assert np.allclose(vectors[1], expected / np.linalg.norm(expected), atol=1e-6)


def test_openai_provider_retries_server_errors(openai_settings, httpserver):
    httpserver.expect_ordered_request("/v1/embeddings").respond_with_data("busy", status=503)
    httpserver.expect_ordered_request("/v1/embeddings").respond_with_handler(_vectors)
    assert get_embedder().embed_documents(["retry me"]).shape == (1, 384)


def test_openai_provider_refuses_a_bad_request_without_retry(openai_settings, httpserver):
    httpserver.expect_oneshot_request("/v1/embeddings").respond_with_data("nope", status=400)
    with pytest.raises(EmbeddingError, match="HTTP 400"):
        get_embedder().embed_documents(["x"])


@pytest.mark.django_db
def test_a_wrong_dimension_is_a_clear_error_and_nothing_is_stored(
    openai_settings, httpserver, owner_client, worker
):
    httpserver.expect_request("/v1/embeddings").respond_with_handler(
        lambda r: _vectors(r, dimension=1536)
    )
    response = owner_client.post(
        f"/api/v1/workers/{worker.pk}/shortterm/",
        {"title": "t", "content": "some fact"},
        format="json",
    )
    body = assert_error(response, 502, "embedding_provider_error")
    assert "dimension 1536" in body["detail"] and "384" in body["detail"]
    assert not ShorttermMemory.objects.exists() and not ShorttermChunk.objects.exists()


@pytest.mark.django_db
def test_an_unreachable_provider_is_502(settings, owner_client, worker):
    settings.MEMORYHUB_EMBEDDINGS = {
        "provider": "openai",
        "dimension": 384,
        "batch_size": 8,
        "url": "http://127.0.0.1:9/v1",
        "model": "m",
        "api_key": "",
    }
    response = owner_client.post(
        f"/api/v1/workers/{worker.pk}/shortterm/", {"title": "t", "content": "x"}, format="json"
    )
    assert_error(response, 502, "embedding_provider_error")
    assert not ShorttermMemory.objects.exists()


@pytest.mark.slow
def test_the_local_model_loads_offline_and_embeds_meaning():
    provider = LocalEmbeddings(384)
    vectors = provider.embed_documents(
        [
            "The API uses JWT tokens for authentication.",
            "Token-based auth protects the gateway.",
            "The marketing budget for Q3 is $50,000.",
        ]
    )
    assert vectors.shape == (3, 384)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.2
    assert np.allclose(
        provider.embed_query("The API uses JWT tokens for authentication."), vectors[0], atol=1e-5
    )
    model = provider.load()  # one text takes a shorter path: the same vector as encode()
    for text in (
        "What changed in the billing service?",
        "budget",
        "Tara Singh — Q3 plans, $50,000 (draft)",
    ):
        assert np.allclose(
            provider.embed_documents([text])[0],
            model.encode([text], normalize_embeddings=True),
            atol=1e-6,
        )


@pytest.mark.slow
def test_bfloat16_batches_give_the_fp32_vectors():
    texts = [f"Note {n}: the billing service moved its nightly export to {n} am." for n in range(8)]
    fp32 = LocalEmbeddings(384, precision="fp32").embed_documents(texts)
    bf16_provider = LocalEmbeddings(384, precision="bf16")
    assert bf16_provider.uses_bf16(8) and not bf16_provider.uses_bf16(1)  # one query runs in fp32
    bf16 = bf16_provider.embed_documents(texts)
    assert bf16.dtype == np.float32 and np.all((fp32 * bf16).sum(axis=1) > 0.999)
    assert not LocalEmbeddings(384, precision="fp32").uses_bf16(64)


def test_the_local_provider_runs_on_the_configured_runtime():
    config = {"provider": "local", "dimension": 384, "batch_size": 8, "precision": "fp32"}
    assert isinstance(build_provider(config), LocalInt8Embeddings)  # the default
    assert isinstance(build_provider({**config, "runtime": "onnx-int8"}), LocalInt8Embeddings)
    assert isinstance(build_provider({**config, "runtime": "torch"}), LocalEmbeddings)


@pytest.mark.slow
def test_the_int8_model_loads_offline_and_gives_the_torch_models_vectors():
    texts = [
        "The API uses JWT tokens for authentication.",
        "Token-based auth protects the gateway.",
        "The marketing budget for Q3 is $50,000.",
        "Caroline (Monday 8 May 2023): I went to a LGBTQ support group yesterday.",
        "budget",
    ]
    provider = LocalInt8Embeddings(384, batch_size=2)  # batches of unequal lengths, padded
    vectors = provider.embed_documents(texts)
    assert vectors.shape == (5, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.2
    torch_vectors = LocalEmbeddings(384, precision="fp32").embed_documents(texts)
    assert np.all((vectors * torch_vectors).sum(axis=1) > 0.998)
    for row, text in enumerate(texts):  # alone, on one thread: the same vector
        assert np.allclose(provider.embed_documents([text])[0], vectors[row], atol=1e-5)
        with one_model_thread():
            assert np.allclose(provider.embed_documents([text, text])[0], vectors[row], atol=1e-5)
        assert provider.count_tokens(text) == LocalEmbeddings(384).count_tokens(text)
    long_text = "word " * 600  # cut at 256 tokens, as sentence-transformers does
    assert provider.count_tokens(long_text) == 600
    assert np.all(np.isfinite(provider.embed_documents([long_text, "short"])))
    assert provider.embed_documents([]).shape == (0, 384)


@pytest.mark.django_db
def test_a_provider_failure_in_a_later_batch_stores_nothing(openai_settings, httpserver, worker):
    from tiers.services.shortterm import shortterm_memory_create

    calls = {"n": 0}

    def flaky(request):
        calls["n"] += 1
        return _vectors(request) if calls["n"] < 3 else Response("bad request", status=400)

    httpserver.expect_request("/v1/embeddings").respond_with_handler(flaky)
    with pytest.raises(EmbeddingError):
        shortterm_memory_create(
            worker=worker, title="big", chunks=[{"content": f"fact {i}"} for i in range(5)]
        )
    assert calls["n"] == 3
    assert not ShorttermMemory.objects.exists() and not ShorttermChunk.objects.exists()
