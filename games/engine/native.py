"""Which engine runs: the hot modules compiled by mypyc, or the very same sources interpreted.

``make install`` compiles the modules named in :data:`COMPILED` with mypyc
(:mod:`games.engine.build`) into extension modules beside their ``.py`` files,
and Python imports an extension module before a source of the same name. There
is no second copy of any rule: the compiled modules are these sources, and the
build records a hash of them (:data:`STAMP`).

The engine runs its sources instead, with identical results, when:

- nothing was compiled (no C compiler, a failed build, or ``YUKON_COMPILE=0 make install``);
- ``YUKON_COMPILE=0`` is set when the engine is imported;
- the sources changed since the build (:func:`status` says to run ``make install``).

This module imports nothing from the engine, so ``games/engine/__init__.py``
imports it first, before any compiled module could load.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Final

# Only light standard modules (os.path, not pathlib or glob; no importlib.abc): every process that
# imports the engine imports this first.

#: The engine's directory: its sources, and the extension modules beside them.
ENGINE: Final = os.path.dirname(os.path.abspath(__file__))
#: The modules ``make install`` compiles: the game's search path (legal moves,
#: push/pop) and the solver's search. The others run interpreted either way.
COMPILED: Final = ("cards", "game", "moves", "solver_core")
#: The solver's search written in C (``_search.c``), built beside the mypyc modules:
#: :func:`search_core` loads it, and ``solver_core.search`` runs it instead of its
#: interpreted :class:`Search` (docs/solver.md, "The C search").
C_CORE: Final = "_search"
#: The shared library holding the compiled code (each compiled module is a
#: small extension module that loads it): mypyc's group name plus ``__mypyc``.
SHARED_LIBRARY: Final = "_compiled__mypyc"
#: Written by a successful build: the :func:`sources_digest` it compiled (first line),
#: then the Python and mypy versions it compiled with.
STAMP: Final = os.path.join(ENGINE, "_compiled.stamp")
#: The environment variable that turns the compiled engine off (``0``), at
#: build time and at import time.
SWITCH: Final = "YUKON_COMPILE"
#: The package name under which :func:`pure` loads the engine's sources again.
PURE_PACKAGE: Final = "games.engine_pure"

#: This module's own package: ``games.engine``, or :data:`PURE_PACKAGE` in the copy
#: :func:`pure` loads.
_PACKAGE: Final = __name__.rpartition(".")[0]


def switched_off() -> bool:
    """Whether ``YUKON_COMPILE=0`` asks for the interpreted engine."""
    return os.environ.get(SWITCH, "").strip() == "0"


def sources_digest() -> str:
    """A hash of every engine source: a build is current only for the sources it hashed.

    All of them, not only :data:`COMPILED`: compiled code may inline a constant
    of a module it imports.
    """
    digest = hashlib.sha256()
    for name in sorted(n for n in os.listdir(ENGINE) if n.endswith((".py", ".pyi", ".c"))):
        with open(os.path.join(ENGINE, name), "rb") as source:
            digest.update(name.encode() + b"\0" + source.read() + b"\0")
    return digest.hexdigest()


def extension_files() -> list[str]:
    """Every extension module lying beside the sources: all of them come from a build.

    Not only those of :data:`COMPILED`: one left from a build that compiled more
    modules would load a shared library that no longer holds its code.
    """
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(
        os.path.join(ENGINE, name) for name in os.listdir(ENGINE) if name.endswith(suffixes)
    )


def build_is_current() -> bool:
    """Whether the extension modules exist and were built from today's sources."""
    if not extension_files():
        return False
    try:
        with open(STAMP) as stamp_file:
            stamp = stamp_file.readline().rstrip("\n")
    except OSError:
        return False
    return stamp == sources_digest()


def compiled() -> bool:
    """Whether the engine in use runs its compiled modules (``False``: interpreted)."""
    return all(
        str(importlib.import_module(f"{_PACKAGE}.{name}").__file__).endswith(
            tuple(importlib.machinery.EXTENSION_SUFFIXES)
        )
        for name in COMPILED
    )


def pure(module: str | None = None) -> ModuleType:
    """The engine interpreted from its sources, as a package of its own.

    ``pure()`` is the package (:data:`PURE_PACKAGE`, the twin of ``games.engine``),
    ``pure("solver")`` one of its modules. Its classes are not those of
    ``games.engine`` (a twin ``Game`` is not a ``games.engine.Game``), so a test
    or benchmark builds its positions on each side: the compiled and the
    interpreted engine then run side by side in one process.
    """
    if not any(isinstance(f, _Sources) and f.package == PURE_PACKAGE for f in sys.meta_path):
        sys.meta_path.insert(0, _Sources(PURE_PACKAGE, with_package=True))
    return importlib.import_module(PURE_PACKAGE if module is None else f"{PURE_PACKAGE}.{module}")


class _Sources:
    """Finds the engine's modules under ``package`` as their ``.py`` sources.

    A meta path finder: it stands first in ``sys.meta_path``, so an extension
    module of the same name beside a source is never considered.
    """

    def __init__(self, package: str, *, with_package: bool) -> None:
        self.package = package
        self.with_package = with_package

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname == self.package and self.with_package:
            source = os.path.join(ENGINE, "__init__.py")
            search: list[str] | None = [ENGINE]
        else:
            parent, _, name = fullname.rpartition(".")
            source = os.path.join(ENGINE, f"{name}.py")
            search = None
            if parent != self.package or not os.path.exists(source):
                return None
        loader = importlib.machinery.SourceFileLoader(fullname, source)
        return importlib.util.spec_from_file_location(
            fullname, source, loader=loader, submodule_search_locations=search
        )


def search_core() -> ModuleType | None:
    """The C search (:data:`C_CORE`) when the compiled engine runs, else ``None``.

    ``None`` in the interpreted twin (:func:`pure`), with ``YUKON_COMPILE=0``, and
    when the build is missing or stale: the search then runs ``solver_core.Search``.
    """
    if _PACKAGE != "games.engine" or switched_off() or not build_is_current():
        return None
    try:
        return importlib.import_module(f"{_PACKAGE}.{C_CORE}")
    except ImportError:
        return None


def status() -> str:
    """Which engine runs, and why, in a few words (benchmarks and tests print it)."""
    if _PACKAGE == PURE_PACKAGE:
        return "interpreted: the sources, loaded by games.engine.native.pure()"
    if compiled():
        return "compiled (mypyc, and the C search)" if search_core() else "compiled (mypyc)"
    if not extension_files():
        return (
            "interpreted: nothing compiled (make install found no C compiler, "
            "the build failed, or YUKON_COMPILE=0)"
        )
    if switched_off():
        return "interpreted: YUKON_COMPILE=0"
    return "interpreted: the compiled modules were built from other sources (run make install)"


def _route_to_sources() -> None:
    """Import ``games.engine``'s modules from their sources when its compiled ones must not run."""
    if _PACKAGE != "games.engine" or not extension_files():
        return
    if switched_off() or not build_is_current():
        sys.meta_path.insert(0, _Sources(_PACKAGE, with_package=False))


_route_to_sources()
