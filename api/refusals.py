"""Refusal sentences in the request's language; the machine ``code`` always stays English.

The engine is Django-free and speaks English: a refused move carries its
``template`` from ``games.engine.refusals`` and the ``params`` it was formatted
with, so translating the template and formatting it again says the same
sentence in the active language (English: the engine's own). Any other engine
error falls back to the code's translated description (``games.engine.CODES``).
A service refusal's sentence is its class's ``message``; its English one may name
ids.
"""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext as translate

from games.engine import CODES, YukonError
from games.errors import ServiceError


def _english() -> bool:
    return (get_language() or "en").split("-")[0] == "en"


def engine_message(error: YukonError) -> str:
    """The engine refusal in the active language, from the engine's own template."""
    if error.template is not None:
        return translate(error.template) % error.params
    if _english():
        return error.message
    known = CODES.get(error.code)
    return translate(known.description) if known is not None else error.message


def service_message(error: ServiceError) -> str:
    """The service refusal in the active language (English: the service's own sentence,
    which may name ids; other languages: the refusal class's `message`)."""
    return error.detail if _english() else str(type(error).message)
