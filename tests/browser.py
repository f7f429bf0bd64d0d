"""Playwright driving Debian's Chromium (never a downloaded browser)."""

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("MEMORYHUB_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_or_skip() -> str:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM} (make test installs Debian's chromium)")
    return CHROMIUM


@pytest.fixture
def page(tmp_path):
    from playwright.sync_api import sync_playwright

    executable = chromium_or_skip()
    # Playwright's sync API runs an event loop in this thread; the ORM calls the test
    # makes around it are still synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15_000)
        yield page
        context.close()
        browser.close()
        # ORM calls made while Playwright's loop runs use their own connection: close it
        # here, or the test database cannot be dropped at the end of the run.
        from django.db import connections

        connections.close_all()


def screenshot(page, name: str) -> Path:
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def wait_for_htmx(page) -> None:
    """Until htmx has processed the page: a click before that follows a plain link."""
    page.wait_for_load_state("load")
    page.wait_for_function("window.htmx !== undefined")
