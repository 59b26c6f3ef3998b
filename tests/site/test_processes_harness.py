"""scripts/processes.py with real children: ready, silent, dead early, deaf to SIGTERM."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

from scripts.processes import Child, ChildNotReady, ephemeral_port_range, free_port, listen_ports
from tests.support.servers import running
from tests.support.waiting import wait_until

# The deadline handed to the code under test: how long a silent child may stay silent.
SHORT = 0.5
STOP_DEADLINE = 30


def python(source: str) -> list[str]:
    return [sys.executable, "-u", "-c", source]


def test_a_child_that_prints_its_ready_line_is_ready_and_logged(tmp_path: Path) -> None:
    log = tmp_path / "child.log"
    source = "import time; print('starting'); print('ready now'); time.sleep(600)"
    with Child("ready", python(source), log_path=log) as child:
        child.wait_for("ready now")
        assert child.process.poll() is None
    assert child.process.returncode == -signal.SIGTERM
    assert log.read_text() == "starting\nready now\n"


def test_a_child_that_prints_nothing_fails_after_the_deadline() -> None:
    with Child("silent", python("import time; time.sleep(600)")) as child:
        with pytest.raises(ChildNotReady, match=r"silent did not print 'ready' within 0\.5 s"):
            child.wait_for("ready", timeout=SHORT)
        assert child.process.returncode == -signal.SIGKILL  # killed, not left running


def test_a_child_that_exits_early_fails_with_its_output() -> None:
    source = "import sys; print('port 8000 is taken'); sys.exit(3)"
    with Child("early", python(source)) as child, pytest.raises(ChildNotReady) as failed:
        child.wait_for("ready")
    message = str(failed.value)
    assert "early exited (status 3) before printing 'ready'" in message
    assert "port 8000 is taken" in message


def test_stop_kills_a_child_that_ignores_sigterm() -> None:
    source = (
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "print('ready', flush=True); time.sleep(600)"
    )
    child = Child("stubborn", python(source))
    child.wait_for("ready")
    assert child.stop(timeout=SHORT) == -signal.SIGKILL


def test_kill_reaches_the_childs_own_children() -> None:
    """Workers a server forks die with it: the harness kills the whole process group."""
    grandchild = "import time; time.sleep(600)"
    source = (
        "import subprocess, sys, time; "
        f"worker = subprocess.Popen([sys.executable, '-c', {grandchild!r}]); "
        "print('worker', worker.pid, flush=True); time.sleep(600)"
    )
    child = Child("forking", python(source))
    child.wait_for("worker ")
    worker = int(child.lines[0].split()[1])
    child.kill()
    # SIGKILL lands as the kernel schedules it.
    wait_until(lambda: not running(worker), f"the worker {worker} to die", timeout=STOP_DEADLINE)


def test_free_ports_lie_outside_the_range_outgoing_connections_take_and_never_repeat() -> None:
    """A port found free could be taken before its server binds it: by another free_port()
    call, or as the local port of any outgoing connection the kernel opens meanwhile (seen:
    a redis-server of the two-process tests failed with "Address already in use")."""
    low, high = ephemeral_port_range()
    ports = [free_port() for _ in range(50)]
    assert len(set(ports)) == len(ports)
    assert all(not low <= port <= high for port in ports), (low, high, ports)


def test_each_xdist_worker_hands_out_ports_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two pytest-xdist workers each look for a free port at the same time: their shares of
    the ports never overlap, so neither binds a port the other just found free."""
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "2")
    shares = []
    for worker in ("gw0", "gw1"):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
        shares.append(set(listen_ports()))
        assert free_port() in shares[-1]
    assert shares[0] and shares[1] and not shares[0] & shares[1]
    low, _ = ephemeral_port_range()
    assert max(shares[0] | shares[1]) < low
