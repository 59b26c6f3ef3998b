"""Game codes such as ``YU1-C-AAAAAAB``: format, rule letter, deal number."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from .errors import InvalidGameCodeError
from .rules import CLASSIC, Rule

#: The format prefix: Yukon, code version 1.
CODE_PREFIX = "YU1"
#: Letters in a deal number, and how many deal numbers exist.
NUMBER_LETTERS = 7
DEAL_COUNT: int = 26**NUMBER_LETTERS

_ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _letters(number: int) -> str:
    out = []
    for _ in range(NUMBER_LETTERS):
        number, digit = divmod(number, 26)
        out.append(chr(ord("A") + digit))
    return "".join(reversed(out))


@dataclass(frozen=True)
class GameCode:
    """A deal number under a rule; the same number deals the same cards under any rule.

    >>> GameCode.parse("yu1-c-aaaaaab")
    GameCode.parse('YU1-C-AAAAAAB')
    >>> GameCode.parse("YU1-R-AAAAABA").number
    26
    """

    rule: Rule
    number: int

    def __post_init__(self) -> None:
        if not (isinstance(self.number, int) and 0 <= self.number < DEAL_COUNT):
            raise InvalidGameCodeError(
                f"deal number {self.number!r} is outside 0..{DEAL_COUNT - 1}", code="code-number"
            )

    @classmethod
    def parse(cls, text: str) -> GameCode:
        """Parse a code strictly (case-insensitive); every error names the wrong part."""
        if not isinstance(text, str):
            raise InvalidGameCodeError(f"{text!r} is not text", code="code-format")
        parts = text.split("-")
        if len(parts) != 3:
            raise InvalidGameCodeError(
                f"{text!r} is not a game code (expected three parts like YU1-C-AAAAAAB)",
                code="code-format",
            )
        prefix, letter, digits = parts
        if not (prefix.isascii() and prefix.upper() == CODE_PREFIX):
            raise InvalidGameCodeError(
                f"{prefix!r} in {text!r} is not the game code prefix {CODE_PREFIX}",
                code="code-prefix",
            )
        try:
            rule = Rule.from_letter(letter)
        except InvalidGameCodeError as error:
            raise InvalidGameCodeError(f"{error.message} in {text!r}", code="code-rule") from None
        if not all(ch in _ASCII_LETTERS for ch in digits):
            raise InvalidGameCodeError(
                f"{digits!r} in {text!r} has characters other than the letters A-Z",
                code="code-characters",
            )
        if len(digits) != NUMBER_LETTERS:
            raise InvalidGameCodeError(
                f"{digits!r} in {text!r} has {len(digits)} letters, not {NUMBER_LETTERS}",
                code="code-length",
            )
        number = 0
        for ch in digits.upper():
            number = number * 26 + ord(ch) - ord("A")
        return cls(rule, number)

    @classmethod
    def random(cls, rule: Rule = CLASSIC, rng: random.Random | None = None) -> GameCode:
        """A new deal drawn uniformly over all 26**7 numbers (``secrets`` unless ``rng``)."""
        number = secrets.randbelow(DEAL_COUNT) if rng is None else rng.randrange(DEAL_COUNT)
        return cls(rule, number)

    def __str__(self) -> str:
        return f"{CODE_PREFIX}-{self.rule.letter}-{_letters(self.number)}"

    def __repr__(self) -> str:
        return f"GameCode.parse({str(self)!r})"
