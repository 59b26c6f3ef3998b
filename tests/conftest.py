"""Shared fixtures: the players alice and bob, and API clients acting as them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient
from xdist.scheduler import LoadScopeScheduling

from api.realtime import writes
from tests.support import error_codes
from tests.support.flush import retry_flush_after_deadlocks
from tests.support.hashing import quick_password_hashing
from tests.support.play import token_client


def pytest_configure(config: pytest.Config) -> None:
    retry_flush_after_deadlocks()
    quick_password_hashing()
    error_codes.record()


#: What `make check` leaves out (marked `slow`): the tests that start real processes (servers,
#: Redis, Chromium, clusters, nginx) or play long searches. `make test` runs everything.
SLOW_PACKAGES = ("browser", "clients", "deploy", "robustness")
SLOW_MODULES = (
    "analysis/test_hint_following.py",
    "analysis/test_worker_kill.py",
    "api/test_hostile_input.py",
    "arenas/test_benchmark_smoke.py",
    "arenas/test_processes.py",
    "api/test_schema_fuzz.py",
    "odds/test_worker.py",
    "races/test_processes.py",
    "realtime/test_classroom_sockets.py",
    "realtime/test_hostile_sockets.py",
    "realtime/test_processes.py",
    "realtime/test_sharded_layer.py",
    "realtime/test_soak.py",
    "site/test_benchmarks.py",
    "site/test_catalogues.py",
    "site/test_client_address.py",
    "site/test_fresh_site.py",
    "site/test_error_code_census.py",
    "site/test_smoke.py",
)
#: Modules whose tests share servers started once for the module (module-scoped fixtures).
SHARED_SERVER_MODULES = (
    "realtime/test_classroom_sockets.py",
    "realtime/test_fanout.py",
    "realtime/test_hostile_sockets.py",
    "realtime/test_processes.py",
    "realtime/test_soak.py",
)
#: The browser package, by far the longest group, runs as this many (its modules dealt out in
#: name order), each starting its own server and Chromium: two workers share it.
BROWSER_GROUPS = 2
TESTS = Path(__file__).parent
BROWSER_MODULES = sorted(path.name for path in (TESTS / "browser").glob("test_*.py"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        where = Path(item.fspath).relative_to(TESTS).as_posix()
        if where.split("/")[0] in SLOW_PACKAGES or where in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


def worker_group(nodeid: str) -> str:
    """The tests that run on one pytest-xdist worker, so that the processes they share start
    once: a package of SLOW_PACKAGES (its server, Chromium or cluster; the browser package
    as BROWSER_GROUPS), a module of SHARED_SERVER_MODULES; any other test alone, on
    whichever worker is free."""
    where = nodeid.split("::")[0].removeprefix("tests/")
    package = where.split("/")[0]
    if package == "browser":
        return f"browser-{BROWSER_MODULES.index(where.split('/')[-1]) % BROWSER_GROUPS}"
    if package in SLOW_PACKAGES:
        return package
    return where if where in SHARED_SERVER_MODULES else nodeid


class SharedProcessScheduling(LoadScopeScheduling):  # type: ignore[misc]  # xdist is untyped
    """xdist's loadscope, by `worker_group` (largest groups first). Its own loadgroup reads
    `xdist_group` marks from a suffix it writes into each test's id, which pytest 9.2 no
    longer lets it write."""

    def _split_scope(self, nodeid: str) -> str:
        return worker_group(nodeid)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadgroup` (make test) groups the tests by `worker_group`."""
    return SharedProcessScheduling(config, log) if config.getvalue("dist") == "loadgroup" else None


def _whole_suite(config: pytest.Config) -> bool:
    """No paths, keywords, markers or deselection, and not only collected: every test ran (as
    `make test` runs them)."""
    narrowed = config.args not in ([], ["tests"]) or config.option.keyword or config.option.markexpr
    last_failed = getattr(config.option, "lf", False)  # absent under -p no:cacheprovider
    ran = not config.option.collectonly
    return ran and not narrowed and not config.option.deselect and not last_failed


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Every documented error code was produced by some test (checked on whole-suite runs, or
    when YUKON_CHECK_ERROR_CODES=1 asks for it on a part). A pytest-xdist worker saw only its
    share of the tests: it hands the codes it saw to the controller, which checks them all."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["error_codes"] = sorted(error_codes.SEEN)
        return
    asked = os.environ.get("YUKON_CHECK_ERROR_CODES") == "1"
    if exitstatus != 0 or not (asked or _whole_suite(session.config)):
        return
    missing = error_codes.unproduced()
    if missing:
        _fail(session, f"documented error codes no test produced: {sorted(missing)}")


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """A pytest-xdist worker finished: the codes its tests saw join the controller's."""
    error_codes.SEEN.update(getattr(node, "workeroutput", {}).get("error_codes", ()))


def _fail(session: pytest.Session, message: str) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(message, red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's, plus: the websocket write threads' kept connections end before the
    test database is dropped (PostgreSQL refuses to drop a database still connected to)."""
    yield
    with django_db_blocker.unblock():
        writes.threads.close()


@pytest.fixture(autouse=True)
def _write_threads_end_with_the_test() -> Iterator[None]:
    """The websocket write threads keep a pooled connection each (ops/kept_connections.py):
    they end with the test that used them, so no test inherits connections another test's
    database work (a flush, a terminated backend) left checked out of the pool."""
    yield
    writes.threads.close()


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password="correct horse battery")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="staple battery horse")


@pytest.fixture
def alice_api(alice: User) -> APIClient:
    return token_client(alice)


@pytest.fixture
def bob_api(bob: User) -> APIClient:
    return token_client(bob)
