"""The API's JSON renderer: an answer never fails to encode.

Answers are UTF-8 with characters as they are, except text UTF-8 cannot hold (a
lone surrogate, say echoed from the request in an error message): that answer
is written with ``\\u`` escapes instead, which is the same JSON text.
"""

from __future__ import annotations

from typing import Any

from rest_framework import renderers


class JSONRenderer(renderers.JSONRenderer):
    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        try:
            return bytes(super().render(data, accepted_media_type, renderer_context))
        except UnicodeEncodeError:
            return bytes(_AsciiJSONRenderer().render(data, accepted_media_type, renderer_context))


class _AsciiJSONRenderer(renderers.JSONRenderer):
    ensure_ascii = True
