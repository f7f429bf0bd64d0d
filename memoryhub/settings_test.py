"""Settings for the test suite: a throw-away embedded PostgreSQL per run.

With DATABASE_URL set the tests use that server instead (pytest-django creates and
drops its own test database on it).
"""

import os
import tempfile

if not os.environ.get("DATABASE_URL") and not os.environ.get("MEMORYHUB_DATA_DIR"):
    os.environ["MEMORYHUB_DATA_DIR"] = tempfile.mkdtemp(prefix="memoryhub-test-")
    # The last process holding the throw-away server stops it and deletes the data.
    os.environ["MEMORYHUB_EMBEDDED_CLEANUP"] = "delete"

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
# Fast deterministic embeddings; the tests of the local model ask for it explicitly.
os.environ.setdefault("MEMORYHUB_EMBEDDINGS", "hash")

from memoryhub.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
Q_CLUSTER = {**Q_CLUSTER, "sync": True}  # noqa: F405
# The task cluster runs inline here, so a capacity sweep would reset counts in the middle
# of tests about counting; the capacity trigger's own tests switch it on.
# Sections are read on write only in the tests of that (the inline cluster would read
# every section every test writes).
MEMORYHUB_MIGRATION = {  # noqa: F405
    **MEMORYHUB_MIGRATION,  # noqa: F405
    "capacity_updates": 0,
    "capacity_memories": 0,
    "read_on_write": "off",
}
# The suite writes faster than any agent; the rate limit's own tests switch it on.
MEMORYHUB_API = {**MEMORYHUB_API, "write_rate": ""}  # noqa: F405
