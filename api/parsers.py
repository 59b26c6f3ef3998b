"""The API's JSON parser: DRF's, with a bounded nesting depth and no lone surrogates.

Python's decoder recurses once per level, so a body nested 1,500 deep overflows
it; and an escaped lone surrogate (``"\\ud800"``) decodes into text no encoder
can write back, not to an answer nor to PostgreSQL. Both are refused with a 400
before any view sees the data. No request of this API nests deeper than 2.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 32
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class JsonTooDeep(ParseError):
    default_detail = format_lazy(
        _("The JSON body nests deeper than {limit} levels."), limit=MAX_DEPTH
    )


class LoneSurrogate(ParseError):
    default_detail = _("The JSON body holds a lone surrogate (\\ud800-\\udfff), which is no text.")


class JSONParser(parsers.JSONParser):
    """Kept a subclass of DRF's, so DRF still reads the body through Django's size limit."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise JsonTooDeep() from None
        inspect_json(data)
        return data


def inspect_json(value: object) -> None:
    """Refuse (`JsonTooDeep`, `LoneSurrogate`) what no message of this API may hold; the
    game's websocket checks its messages with it too."""
    _inspect(value, depth=0)


def _inspect(value: object, depth: int) -> None:
    """Refuse nesting beyond MAX_DEPTH and lone surrogates in any key or string."""
    if isinstance(value, str):
        if LONE_SURROGATE.search(value):
            raise LoneSurrogate()
    elif isinstance(value, list | dict):
        if depth == MAX_DEPTH:
            raise JsonTooDeep()
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            _inspect(key, depth + 1)
            _inspect(item, depth + 1)
