"""Putting one game's pushes back in version order for one websocket connection.

Pushes are published on commit from different worker threads (and processes),
so two changes can reach a consumer in the wrong order, and a push can be lost
when the channel layer hiccups. The sequencer holds early messages until the
missing ones arrive, drops anything the client already has, and tells the
consumer when it is waiting (so it can resync from the database if the gap
does not fill).
"""

from __future__ import annotations

from games.pushes import ENDS_GAME

# (version, 1 if the message ends the game else 0): a won game's last move and
# its `finished` share a version, and `finished` comes second.
Position = tuple[int, int]


def position_of(version: int, kind: str, *, ended: bool = False) -> Position:
    """Where a message stands; a `state` of a finished game stands after its `finished`."""
    return version, int(kind in ENDS_GAME or ended)


class Sequencer:
    """The client's position in the game and the pushes (encoded text) held back for their turn."""

    def __init__(self) -> None:
        self.position: Position = (-1, 0)
        self.pending: dict[Position, str] = {}

    @property
    def waiting(self) -> bool:
        """True while some message is held back for a missing earlier one."""
        return bool(self.pending)

    def reset(self, position: Position) -> list[str]:
        """A full `state` at `position` went out: it stands for everything up to there.

        Returns the held messages that may now follow it.
        """
        self.position = position
        return self._drain()

    def offer(self, position: Position, text: str) -> list[str]:
        """Take a push; return the messages to send now, in order (maybe none)."""
        if position > self.position:
            self.pending[position] = text
        return self._drain()

    def _follows(self, key: Position) -> bool:
        version, ended = self.position
        return key[0] == version + 1 or (key == (version, 1) and not ended)

    def _drain(self) -> list[str]:
        self.pending = {key: text for key, text in self.pending.items() if key > self.position}
        ready: list[str] = []
        while self.pending:
            key = min(self.pending)
            if not self._follows(key):
                break
            ready.append(self.pending.pop(key))
            self.position = key
        return ready
