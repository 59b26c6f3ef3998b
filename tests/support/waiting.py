"""The tests' one polling loop: wait for a condition, with a deadline for a busy machine."""

from __future__ import annotations

import time
from collections.abc import Callable

#: A ceiling, never a pause: a wait ends as soon as its condition holds; generous so a
#: machine whose cores are busy with other work does not fail a test that would pass.
WAIT_SECONDS = 120
#: Between two polls: a waiting test must not take a core from the processes it waits on.
POLL_SECONDS = 0.05


def wait_until[T](
    condition: Callable[[], T | None],
    what: str | Callable[[], object],
    *,
    timeout: float = WAIT_SECONDS,
    interval: float = POLL_SECONDS,
) -> T:
    """Poll `condition` until it returns something true, and return that.

    Fails once `timeout` seconds have passed, saying what it waited for: `what`, or what
    `what()` says then (say, the counters or a child's output at the deadline).
    """
    deadline = time.monotonic() + timeout
    while not (result := condition()):
        if time.monotonic() > deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"gave up after {timeout:g} s waiting for {said}")
        time.sleep(interval)
    return result
