import pytest

from tests.browser import screenshot
from tests.factories import ActiveMemoryFactory, StaffFactory, WorkerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_admin_logs_in_and_sees_what_is_in_the_system(live_server, page):
    StaffFactory(username="alice")
    planner = WorkerFactory(name="planner")
    ActiveMemoryFactory.create_batch(2, worker=planner)

    page.goto(f"{live_server.url}/")
    assert "/accounts/login/" in page.url
    page.fill("#id_username", "alice")
    page.fill("#id_password", "wrong password")
    page.click("button[type=submit]")
    assert (
        page.locator("[role=alert]")
        .inner_text()
        .startswith("Your username and password didn't match")
    )
    screenshot(page, "login-error")

    page.fill("#id_username", "alice")
    page.fill("#id_password", "correct horse battery staple")
    page.click("button[type=submit]")
    page.wait_for_selector("h1:text('Overview')")
    assert page.locator("td[data-tier=active]").inner_text() == "2"
    assert page.locator("tr[data-worker=planner] td[data-col=active]").inner_text() == "2"
    assert page.locator("#health .badge").inner_text() == "ok"
    screenshot(page, "home")

    # htmx (served by us, not a CDN) swaps a fresh health panel in place.
    assert page.evaluate("typeof htmx") == "object"
    page.evaluate("document.querySelector('#health .badge').textContent = 'stale'")
    page.evaluate("htmx.ajax('GET', '/health-panel', {target: '#health', swap: 'outerHTML'})")
    page.wait_for_function("document.querySelector('#health .badge').textContent === 'ok'")

    page.click("text=API docs")
    page.wait_for_selector("text=MemoryHub API")
    screenshot(page, "api-docs")

    page.goto(f"{live_server.url}/admin/tiers/activememory/")
    assert page.locator("#result_list tbody tr").count() == 2
    screenshot(page, "admin-active")
