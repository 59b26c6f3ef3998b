"""The base of every service refusal: a stable machine code, an HTTP status, its sentence.

It lives at the bottom layer so that every app (accounts, games) can refuse with
it and the API answers all of them in one shape. Each refusal class carries its
sentence (`message`), translated into the request's language; the English `detail`
an instance is raised with may name ids and is what English answers say.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

type StrOrPromise = str | Promise


class ServiceError(Exception):
    code = "service-error"
    status = 400
    #: The refusal in a sentence, in the request's language (no ids: `detail` has them).
    message: StrOrPromise = _("The request could not be carried out.")

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail

    def details(self) -> dict[str, object]:
        """Fields the error body carries beside `code` and `message` (machine-readable)."""
        return {}
