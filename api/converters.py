"""Path converters: a path parameter that cannot name anything never reaches PostgreSQL.

Django's ``str`` converter lets any text through, NUL included, and PostgreSQL
refuses NUL in a query (a DataError, so a 500). A username is what Django's
username validator allows; a room code is the room alphabet at the room length
(either case). Anything else matches no route: a JSON 404 (a room: `race-not-found`).
Importing this module registers them as `<username:...>`, `<room:...>` and `<position:...>`
(an analysis board's key).
"""

from __future__ import annotations

import re

from django.urls import register_converter

from accounts import usernames
from games.analysis.board import KEY_LENGTH
from games.races.rooms import ROOM_ALPHABET, ROOM_LENGTH


class UsernameConverter:
    """A username as typed in a path; its stored (NFKC) form reaches the view."""

    regex = r"[\w.@+-]+"

    def to_python(self, value: str) -> str:
        return usernames.normalize(value)

    def to_url(self, value: str) -> str:
        return value


class RoomConverter:
    """A race room code, typed in either case (`abc234` is `ABC234`)."""

    regex = f"[{re.escape(ROOM_ALPHABET + ROOM_ALPHABET.lower())}]{{{ROOM_LENGTH}}}"

    def to_python(self, value: str) -> str:
        return value.upper()

    def to_url(self, value: str) -> str:
        return value


class PositionKeyConverter:
    """An analysis board position's key: lowercase hex of its length."""

    regex = f"[0-9a-f]{{{KEY_LENGTH}}}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


# Registered here, once per process: the REST routes (api/urls.py) and the websocket
# routes (api/realtime/routing.py) both use them, and Django refuses a second registration.
register_converter(UsernameConverter, "username")
register_converter(RoomConverter, "room")
register_converter(PositionKeyConverter, "position")


class ArenaConverter:
    """An arena's public id: a public arena's number or any arena's link token."""

    regex = r"[A-Za-z0-9_-]{1,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ArenaConverter, "arena")
