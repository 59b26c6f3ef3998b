"""Compile the engine's hot modules with mypyc: ``python -m games.engine.build`` (``make install``).

The modules of :data:`games.engine.native.COMPILED` become extension modules
beside their sources (``games/engine/*.so``, git-ignored), the C sources and
objects go to ``build/engine/``. The build is skipped, in one line of output:

- when the last build compiled the same sources with the same Python and mypy;
- with ``YUKON_COMPILE=0``, which also removes a previous build;
- without a C compiler (``cc``, or ``gcc`` on Debian) or Python's headers, or
  when the build fails: the engine then runs its sources, with identical results.

A build-time tool, never imported by the engine. The compile step itself
(mypyc, then setuptools driving the C compiler: dev dependencies) runs in a
child interpreter, so that this module, like every engine module, imports only
the standard library, and the build never runs in a process that has the
engine's compiled modules loaded while it replaces them.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from . import native
from .native import COMPILED, extension_files, sources_digest, switched_off

#: The engine's directory.
ENGINE = Path(native.ENGINE)
#: Written by a successful build (see :data:`games.engine.native.STAMP`).
STAMP = Path(native.STAMP)
#: The project's root: setuptools places in-place builds by package path from here.
ROOT = ENGINE.parent.parent
#: Generated C sources and object files.
BUILD_DIR = Path("build") / "engine"


def stamp_text() -> str:
    """What :data:`STAMP` holds after a build of today's sources with today's tools."""
    return f"{sources_digest()}\npython {sys.version.split()[0]}, mypy {_mypy_version()}\n"


def _mypy_version() -> str:
    try:
        return importlib.metadata.version("mypy")
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def missing_tool() -> str | None:
    """Why no extension can be built here, or ``None`` when the tools are present."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}; on Debian: apt-get install -y gcc)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        return f"no Python headers ({headers}; on Debian: apt-get install -y python3-dev)"
    if _mypy_version() == "absent":
        return "mypyc is not installed (it comes with mypy, a dev dependency)"
    return None


def remove_build() -> None:
    """Delete the extension modules and the stamp: the engine then runs its sources.

    Unlinking (never overwriting) keeps a running process's mapped copy intact.
    """
    for path in extension_files():
        os.unlink(path)
    STAMP.unlink(missing_ok=True)


#: The compile step, run by a child interpreter (``python -c``) from the project's root;
#: arguments: the sources, mypyc's group name, the build directory. Not the project's mypy
#: configuration: its Django plugins need settings.
COMPILE_STEP = """
import sys
from mypyc.build import mypycify
from setuptools import setup

sources, group, build_dir = sys.argv[1].split(","), sys.argv[2], sys.argv[3]
extensions = mypycify(
    ["--config-file=", "--strict", *sources],
    opt_level="3",
    group_name=group,
    target_dir=build_dir,
)
setup(
    name="yukon-engine",
    ext_modules=extensions,
    packages=[],  # no package discovery: only the extensions are built
    py_modules=[],
    script_args=["--quiet", "build_ext", "--inplace", "--build-temp", build_dir],
)
"""


def compile_search() -> str | None:
    """Compile the C search (``_search.c``) with the C compiler alone: a second or two."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    source = ENGINE / f"{native.C_CORE}.c"
    target = ENGINE / f"{native.C_CORE}{sysconfig.get_config_var('EXT_SUFFIX')}"
    include = sysconfig.get_paths()["include"]
    done = subprocess.run(
        [*compiler, "-O2", "-shared", "-fPIC", f"-I{include}", str(source), "-o", str(target)],
        capture_output=True,
        text=True,
    )
    if done.returncode == 0:
        return None
    lines = (done.stdout + done.stderr).strip().splitlines()
    return "\n".join(lines[-10:]) or f"exit status {done.returncode}"


def compile_engine() -> str | None:
    """Run mypyc and the C compiler; ``None`` on success, else the end of their output."""
    sources = [str((ENGINE / f"{name}.py").relative_to(ROOT)) for name in COMPILED]
    group = "games.engine." + native.SHARED_LIBRARY.removesuffix("__mypyc")
    done = subprocess.run(
        [sys.executable, "-c", COMPILE_STEP, ",".join(sources), group, str(BUILD_DIR)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode == 0:
        return compile_search()
    lines = (done.stdout + done.stderr).strip().splitlines()
    return "\n".join(lines[-10:]) or f"exit status {done.returncode}"


def main() -> int:
    """Build when needed; always exits 0 so that ``make install`` goes on interpreted."""
    if switched_off():
        remove_build()
        print("games.engine: YUKON_COMPILE=0, running interpreted (no compiled modules)")
        return 0
    wanted = stamp_text()
    built = {os.path.basename(path).split(".")[0] for path in extension_files()}
    expected = {*COMPILED, native.SHARED_LIBRARY, native.C_CORE}
    if built == expected and STAMP.exists() and STAMP.read_text() == wanted:
        return 0  # up to date
    remove_build()
    reason = missing_tool()
    if reason is not None:
        print(f"games.engine: not compiled, running interpreted: {reason}")
        return 0
    started = time.monotonic()
    failure = compile_engine()
    if failure is not None:
        remove_build()
        print(f"{failure}\ngames.engine: the mypyc build failed (above); running interpreted")
        return 0
    STAMP.write_text(wanted)
    seconds = time.monotonic() - started
    print(
        f"games.engine: compiled {', '.join(COMPILED)} with mypyc and {native.C_CORE}.c "
        f"in {seconds:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
