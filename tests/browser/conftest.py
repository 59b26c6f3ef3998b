"""Browser tests: one real ASGI server, its task worker and one headless Chromium for the whole
package, and a new browser context (and a flushed database) for every test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from tests.browser.helpers import WAIT_MS, Player
from tests.support.servers import ROOT, RunningServer, asgi_server, require_tool, task_worker

HERE = Path(__file__).parent
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DESKTOP = {"width": 1280, "height": 800}
#: The server must not throttle the many sign-ups, guests and moves a browser suite makes;
#: a short race countdown, so a race test watches one without waiting long.
SERVER_ENV = {
    "THROTTLE_REGISTER": "10000/min",
    "THROTTLE_LOGIN": "10000/min",
    "THROTTLE_GUEST": "10000/min",
    "RACE_COUNTDOWN_SECONDS": "2",
    # The tests' games are short: a smaller budget keeps the shared worker's queue short.
    "ANALYSIS_POSITION_NODES": "50000",
}

expect.set_options(timeout=WAIT_MS)


def _in_this_package(item: pytest.Item) -> bool:
    return HERE in Path(item.fspath).parents


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the browser tests and run them one after another.

    pytest-django sorts the tests by their database use (a browser test without the database
    would land among the last ones); the package's server and Chromium are started once only
    if its tests stay together, and Playwright's event loop must be gone before the tests
    of other packages run on this thread.
    """
    ours = [item for item in items if _in_this_package(item)]
    if not ours:
        return
    for item in ours:
        item.add_marker(pytest.mark.browser)
    first = items.index(ours[0])
    others = [item for item in items if not _in_this_package(item)]
    items[:] = others[:first] + ours + others[first:]


@pytest.fixture(scope="package", autouse=True)
def _sync_orm_beside_playwright() -> Iterator[None]:
    """Playwright's sync API runs an event loop on this thread while the package's browser is
    up; the ORM calls made here (database flushes between tests) are plain sync calls."""
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if before is None:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture(scope="package")
def browser(django_db_setup: None) -> Iterator[Browser]:
    """Chromium for the package; stopped (and Playwright's event loop with it) once its last
    test is done, before the session tears the test database down."""
    path = require_tool("chromium", "install Debian's chromium: apt-get install -y chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="package")
def server(django_db_setup: None, django_db_blocker: object) -> Iterator[RunningServer]:
    """One server for every browser test; each test gets an empty database (`transactional_db`
    flushes it) and its own browser contexts, so no test sees another's players or games."""
    # A task worker beside it, as under `make run`: queued hints and analyses get answered.
    with asgi_server(SERVER_ENV) as running, task_worker("browser-tests", SERVER_ENV):
        yield running


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def alice_browser(
    browser: Browser, server: RunningServer, transactional_db: None
) -> Iterator[Player]:
    """alice, signed up through the API, in her own browser context at desktop size."""
    player = Player.sign_up(browser, server, "alice", viewport=DESKTOP)
    yield player
    player.close()


@pytest.fixture
def bob_browser(
    browser: Browser, server: RunningServer, transactional_db: None
) -> Iterator[Player]:
    player = Player.sign_up(browser, server, "bob", viewport=DESKTOP)
    yield player
    player.close()
