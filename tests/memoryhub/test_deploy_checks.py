"""`manage.py check --deploy` is clean under the production environment."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_is_clean_with_the_production_environment():
    inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {  # (the browser tests allow async-unsafe calls in this process; production does not)
        **inherited,
        "DJANGO_SETTINGS_MODULE": "memoryhub.settings",
        "DEBUG": "false",
        "MEMORYHUB_HTTPS": "true",
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": "memoryhub.example.com",
        "DATABASE_URL": "postgres://memoryhub:x@127.0.0.1:1/memoryhub",  # not connected
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
