"""What a token may do: the scopes of personal tokens and OAuth access tokens alike.

Every API view and websocket consumer names the scope it needs in a class
attribute `required_scope` (a scope, or a mapping HTTP method -> scope); a
token without it is refused with 403 `missing-scope`. The signed-in session
holds every scope: it is the player, not a delegate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ops.errors import ServiceError

#: Scope name -> what it lets a client do (shown on the consent page, in the player's language).
SCOPES: dict[str, Promise] = {
    "game:read": _("see your games, replays, analyses and leaderboards"),
    "game:play": _("start games and play moves, undos and assists in your name"),
    "race:play": _("join and play races in your name"),
    "arena:play": _("join and play arenas in your name"),
    "account:read": _("read your account and settings"),
    "account:write": _("change your settings and sign out"),
}

#: `required_scope` of an endpoint that anyone may call with no credentials (sign-in, CSRF):
#: a token there grants nothing, so none is needed.
PUBLIC = "public"

#: What an endpoint needs: one scope, or alternatives any of which will do (a tuple).
Needed = str | tuple[str, ...]
RequiredScope = Needed | Mapping[str, Needed]

#: The reads a racing or arena client needs (the lobby, races, the quick match queue, a
#: game's state and feed): `game:read` reads them all, and `race:play` or `arena:play` is
#: enough for them.
RACE_READ: Needed = ("game:read", "race:play", "arena:play")
#: The reads of arenas (the list, an arena, its standings and feed).
ARENA_READ: Needed = ("game:read", "arena:play")
#: The writes to a game: `game:play` for an ordinary game, `race:play` for a race game,
#: `arena:play` for an arena game (`check_game_write` says which a given game needs).
GAME_WRITE: Needed = ("game:play", "race:play", "arena:play")


def parse_scopes(text: str) -> frozenset[str]:
    """Space-separated scope names (the OAuth form) to a set; unknown names are dropped."""
    return frozenset(name for name in text.split() if name in SCOPES)


def format_scopes(names: Iterable[str]) -> str:
    """The stored form, in the order of SCOPES (stable, readable)."""
    chosen = set(names)
    return " ".join(name for name in SCOPES if name in chosen)


def scope_for(required: RequiredScope | None, method: str) -> Needed | None:
    """The scope an endpoint needs for this method (None: the view declares none)."""
    if required is None or isinstance(required, str | tuple):
        return required
    method = method.upper()
    # HEAD and OPTIONS only describe what GET would answer.
    return required.get("GET" if method in ("HEAD", "OPTIONS") else method)


class MissingScope(ServiceError):
    """A token asked for what its scopes do not cover. Other languages: `api.refusals`."""

    code = "missing-scope"
    status = 403
    message = _("This token was not granted the scope this request needs (named in 'scope').")

    def __init__(self, scope: str) -> None:
        super().__init__(f"This token lacks the scope '{scope}', which this request needs.")
        self.scope = scope

    def details(self) -> dict[str, object]:
        return {"scope": self.scope}


class SessionRequired(ServiceError):
    """What needs the player's password (a session), which no scope of a token grants."""

    code = "session-required"
    status = 403
    message = _(
        "Managing API tokens needs a signed-in session (log in with your password): "
        "an API token cannot list, create or revoke tokens."
    )

    def __init__(self) -> None:
        super().__init__(
            "Managing API tokens needs a signed-in session (log in with your password): "
            "an API token cannot list, create or revoke tokens."
        )


def check_scope(granted: frozenset[str], required: RequiredScope | None, method: str) -> None:
    """Refuse a token whose scopes lack what the endpoint declares for this method.

    An endpoint that declares nothing refuses every token (fail closed): the test
    `tests/api/test_scopes.py` makes sure each one declares.
    """
    needed = scope_for(required, method)
    if needed == PUBLIC:
        return
    if needed is None:
        raise MissingScope("undeclared")
    alternatives = (needed,) if isinstance(needed, str) else needed
    if granted.isdisjoint(alternatives):
        raise MissingScope(alternatives[0])


def check_game_write(granted: frozenset[str] | None, scope_of_game: Callable[[], str]) -> None:
    """Refuse a write to a game the token may not play: a race game needs `race:play`, an
    arena game `arena:play`, any other `game:play` (None: a signed-in session, which holds
    every scope). `scope_of_game` is asked only when the answer depends on it."""
    if granted is None or granted.issuperset(GAME_WRITE):
        return
    needed = scope_of_game()
    if needed not in granted:
        raise MissingScope(needed)
