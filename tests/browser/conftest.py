"""Browser tests: one real ASGI server per module, one headless Chromium per module."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from tests.browser.helpers import WAIT_MS, Player
from tests.support.servers import ROOT, RunningServer, asgi_server, require_tool, task_worker

SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DESKTOP = {"width": 1280, "height": 800}
#: The server must not throttle the many sign-ups and moves a browser suite makes.
SERVER_ENV = {"THROTTLE_REGISTER": "10000/min", "THROTTLE_LOGIN": "10000/min"}

expect.set_options(timeout=WAIT_MS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="module", autouse=True)
def _sync_orm_beside_playwright() -> Iterator[None]:
    """Playwright's sync API runs an event loop on this thread while a module's browser is up;
    the ORM calls made here (database flushes between tests) are plain sync calls."""
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if before is None:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture(scope="module")
def browser(django_db_setup: None) -> Iterator[Browser]:
    """Chromium for one module; stopped before the session tears the test database down."""
    path = require_tool("chromium", "install Debian's chromium: apt-get install -y chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(django_db_setup: None, django_db_blocker: object) -> Iterator[RunningServer]:
    # A task worker beside it, as under `make run`: queued hints and analyses get answered.
    with asgi_server(SERVER_ENV) as running, task_worker("browser-tests"):
        yield running


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def alice(browser: Browser, server: RunningServer, transactional_db: None) -> Iterator[Player]:
    """alice, signed up through the API, in her own browser context at desktop size."""
    player = Player.sign_up(browser, server, "alice", viewport=DESKTOP)
    yield player
    player.close()


@pytest.fixture
def bob(browser: Browser, server: RunningServer, transactional_db: None) -> Iterator[Player]:
    player = Player.sign_up(browser, server, "bob", viewport=DESKTOP)
    yield player
    player.close()
