"""Hand-made positions for engine tests: name the cards that matter, stash the rest."""

from __future__ import annotations

from games.engine import CARDS, CLASSIC, Card, Game, Rule


def position(
    columns: dict[int, tuple[str, str]],
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0),
    *,
    rule: Rule = CLASSIC,
    stash: int = 6,
) -> Game:
    """A game whose columns (1-based keys) hold ``(face_down, face_up)`` card texts.

    Every card not named and not on a foundation goes face down at the bottom
    of column ``stash`` + 1 (0-based ``stash``), which must be given face-up cards.
    """
    named = {
        Card.parse(text) for down, up in columns.values() for text in (down + " " + up).split()
    }
    on_foundations = {CARDS[s * 13 + r] for s, n in enumerate(foundations) for r in range(n)}
    rest = " ".join(str(c) for c in CARDS if c not in named and c not in on_foundations)
    layout = []
    for i in range(7):
        down, up = columns.get(i + 1, ("", ""))
        if i == stash:
            assert up, "the stash column needs a face-up card"
            down = f"{rest} {down}"
        layout.append((down, up))
    return Game.from_layout(layout, foundations, rule=rule)
