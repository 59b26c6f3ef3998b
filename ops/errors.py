"""The base of every service refusal: a stable machine code and an HTTP status.

It lives at the bottom layer so that every app (accounts, games) can refuse with
it and the API answers all of them in one shape.
"""

from __future__ import annotations


class ServiceError(Exception):
    code = "service-error"
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def details(self) -> dict[str, object]:
        """Fields the error body carries beside `code` and `message` (machine-readable)."""
        return {}
