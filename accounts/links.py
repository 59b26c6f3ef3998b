"""Links sent by e-mail (confirm an address, reset a password) and why one may not work.

A link carries a signed token: nothing is stored for it, and the signature (with its
own salt per purpose) says whether the server made it. A link is single-use because
what it changes is part of what it signs (the address it replaces, the password hash
for Django's reset token): once used, the same token no longer matches.
"""

from __future__ import annotations

from typing import Any

from django.core import signing
from django.utils.translation import gettext_lazy as _

from ops.errors import ServiceError


class LinkInvalid(ServiceError):
    """A token the server never made (mistyped, cut short, or for another purpose)."""

    code = "link-invalid"
    status = 400
    message = _(
        "This link is not valid: copy the whole link from the e-mail, or ask for a new one."
    )


class LinkExpired(ServiceError):
    code = "link-expired"
    status = 410
    message = _("This link has expired: ask for a new one.")


class LinkUsed(ServiceError):
    """A genuine token whose change is already made, or no longer applies."""

    code = "link-used"
    status = 409
    message = _("This link has already been used or no longer applies: ask for a new one.")


def sign(purpose: str, payload: dict[str, Any]) -> str:
    return signing.dumps(payload, salt=f"yukon.{purpose}", compress=True)


def unsign(purpose: str, token: str, max_age_seconds: int) -> dict[str, Any]:
    """The payload of a token made by `sign` for `purpose` within `max_age_seconds`."""
    try:
        payload = signing.loads(token, salt=f"yukon.{purpose}", max_age=max_age_seconds)
    except signing.SignatureExpired:
        raise LinkExpired(f"The {purpose} link has expired.") from None
    except signing.BadSignature:
        raise LinkInvalid(f"The {purpose} link's token is not one the server made.") from None
    if not isinstance(payload, dict):
        raise LinkInvalid(f"The {purpose} link's token holds no payload.")
    return payload
