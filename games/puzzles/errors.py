"""The puzzles' refusals (docs/api.md, section 4 and "Puzzles")."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ops.errors import ServiceError


class PuzzleNotFound(ServiceError):
    """No such puzzle, or one the viewer may not see (games.fairness.visibility.puzzle_visible):
    both answer alike, so a hidden puzzle's existence is not told either."""

    code = "puzzle-not-found"
    status = 404
    message = _("There is no such puzzle.")


class NoDailyPuzzle(ServiceError):
    """The pool holds no puzzle anyone may see, so no day's puzzle can be chosen."""

    code = "no-daily-puzzle"
    status = 404
    message = _("There is no daily puzzle yet: no puzzle has been found to choose from.")


class TooManyMoves(ServiceError):
    """An answer longer than the puzzle's: its last moves would be played after the end."""

    code = "puzzle-too-many-moves"
    status = 400
    message = _("This answer has more moves than the puzzle asks for.")
