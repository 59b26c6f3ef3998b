"""The error-code census (tests/support/error_codes.py) of a run spread over pytest-xdist
workers: each worker hands the codes its tests saw to the controller, which checks them all."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.support import servers

#: Two quick tests, each producing a code the other does not.
TESTS = {
    "tests/api/test_rare_refusals.py::test_a_short_code_is_code_length": "code-length",
    "tests/api/test_rare_refusals.py::test_an_accept_header_without_json_is_406": (
        "not-acceptable"
    ),
}


def test_the_codes_seen_on_two_workers_are_counted_together() -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_XDIST")}
    # The child's workers are gw0 and gw1 too: their test databases must not be this run's.
    env |= {"YUKON_CHECK_ERROR_CODES": "1", "DATABASE_URL": servers.test_database_url("census")}
    command = [sys.executable, "-m", "pytest", "-n", "2", "-p", "no:cacheprovider", "-v"]
    command += ["--no-migrations"]  # two quick tests: tables from the models, no migrations
    done = subprocess.run(
        [*command, *TESTS], cwd=servers.ROOT, env=env, capture_output=True, text=True, check=False
    )
    output = done.stdout + done.stderr
    workers = {re.search(rf"\[(gw\d)\] .*PASSED {re.escape(test)}", output) for test in TESTS}
    assert None not in workers, output[-3000:]
    assert len({found.group(1) for found in workers if found}) == 2, output[-3000:]
    # Two tests leave most documented codes unproduced: the census names them, and fails.
    missing = re.search(r"documented error codes no test produced: \[(.*)\]", output)
    assert missing is not None and done.returncode == 1, output[-3000:]
    assert not set(TESTS.values()) & set(re.findall(r"'([a-z-]+)'", missing.group(1)))
