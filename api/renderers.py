"""The API's renderers: JSON that never fails to encode, and CSV for a data set's download.

Answers are UTF-8 with characters as they are, except text UTF-8 cannot hold (a
lone surrogate, say echoed from the request in an error message): that answer
is written with ``\\u`` escapes instead, which is the same JSON text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from rest_framework import renderers
from rest_framework.exceptions import ValidationError
from rest_framework.fields import ChoiceField
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


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


class CSVRenderer(renderers.BaseRenderer):
    """Rows (lists of cells, the first the header) as CSV text, for a download."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows(data)
        return text.getvalue().encode()


class FormatNegotiation(DefaultContentNegotiation):
    """`?format=` names one of the view's renderers; anything else is a 400 naming the field,
    like any other bad choice (DRF would answer a bare 404)."""

    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        renderers = list(renderers)
        wanted = request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        if wanted is not None and wanted not in {renderer.format for renderer in renderers}:
            invalid = ChoiceField.default_error_messages["invalid_choice"]
            raise ValidationError({"format": [invalid.format(input=wanted)]})
        chosen: tuple[BaseRenderer, str] = super().select_renderer(
            request, renderers, format_suffix
        )
        return chosen
