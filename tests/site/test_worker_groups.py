"""make test spreads the suite over pytest-xdist workers (`--dist loadgroup`, tests/conftest.py):
the tests that share processes started once for their package or module stay on one worker."""

from __future__ import annotations

import re

from tests.conftest import (
    BROWSER_GROUPS,
    SHARED_SERVER_MODULES,
    SLOW_PACKAGES,
    TESTS,
    worker_group,
)

#: A fixture started once for a package or a module (a server, Chromium, a cluster, Redis).
SHARED_FIXTURE = re.compile(r'@pytest\.fixture\(scope="(package|module)"')


def test_a_package_or_module_that_shares_processes_is_one_group() -> None:
    walk = worker_group("tests/browser/test_walk.py::test_every_route")
    assert worker_group("tests/browser/test_walk.py::test_another[x]") == walk
    assert worker_group("tests/deploy/test_nginx.py::test_x[a]") == "deploy"
    processes = "tests/realtime/test_processes.py::test_a_move"
    assert worker_group(processes) == "realtime/test_processes.py"
    alone = "tests/api/test_games.py::TestCreate::test_it_starts_a_random_classic_game"
    assert worker_group(alone) == alone


def test_the_browser_package_is_shared_by_as_many_groups() -> None:
    modules = (TESTS / "browser").glob("test_*.py")
    groups = {worker_group(f"tests/browser/{module.name}::test") for module in modules}
    assert groups == {f"browser-{n}" for n in range(BROWSER_GROUPS)}


def test_every_fixture_shared_by_a_package_or_module_has_its_tests_grouped() -> None:
    """A new module- or package-scoped fixture outside the groups would start once per
    worker that happens to run one of its tests, and again after each switch of module."""
    ungrouped = [
        path.relative_to(TESTS).as_posix()
        for path in sorted(TESTS.rglob("*.py"))
        if SHARED_FIXTURE.search(path.read_text())
        and path.relative_to(TESTS).parts[0] not in SLOW_PACKAGES
        and path.relative_to(TESTS).as_posix() not in SHARED_SERVER_MODULES
    ]
    assert ungrouped == []
