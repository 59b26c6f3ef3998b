"""Path converters: a path parameter that cannot name anything never reaches PostgreSQL.

Django's ``str`` converter lets any text through, NUL included, and PostgreSQL
refuses NUL in a query (a DataError, so a 500). A username is what Django's
username validator allows; anything else matches no route and answers 404.
"""

from __future__ import annotations


class UsernameConverter:
    regex = r"[\w.@+-]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
