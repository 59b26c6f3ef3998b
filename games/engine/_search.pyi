"""Types of the C search (``_search.c``): see ``solver_core.search``."""

from collections.abc import Sequence

class TableFull(Exception):
    """The shared table reached its bound."""

class Search:
    """One depth-first search from the root (``solver_core.Search`` in C)."""

    @property
    def nodes(self) -> int: ...
    @property
    def started(self) -> bool: ...
    @property
    def finished(self) -> bool: ...
    @property
    def line(self) -> list[tuple[int, int]] | None: ...
    def run(self, limit: int, /) -> bool: ...

class Core:
    """The root position, the rule's tables and the table all searches of one solve share."""

    def __init__(
        self,
        parents: Sequence[Sequence[int]],
        children: Sequence[Sequence[int]],
        safe_need: Sequence[Sequence[int] | None],
        fits: bytes,
        columns: Sequence[Sequence[int]],
        down: Sequence[int],
        foundations: Sequence[int],
        entries: int,
    ) -> None: ...
    @property
    def used(self) -> int: ...
    @property
    def capacity(self) -> int: ...
    def search(self, noise: int, seed: int, free_take_backs: bool, main: bool) -> Search: ...
