"""Passwords: change one while signed in, and a forgotten one's reset by e-mail.

A change or a reset stores a new hash, and Django's session check (the session keeps a
hash of the password's hash) then signs out every other session. A reset request says
the same whether or not the address belongs to anyone (no account discovery); it is
throttled per address (refused) and per account (no more e-mails, the same answer).
The link wraps Django's reset token, which stops matching once the password changes
(single use), in a signed envelope that tells a forged link from an expired one.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import links, mail, sessions
from ops.errors import ServiceError

PURPOSE = "password-reset"
#: The app's page a reset link opens (frontend/urls.py).
RESET_PATH = "account/reset"
_WINDOW_SECONDS = 3600


class WrongPassword(ServiceError):
    code = "wrong-password"
    status = 400
    message = gettext_lazy("The current password is not right.")

    def details(self) -> dict[str, object]:
        return {"fields": {"current_password": [str(self.message)]}}


class ResetThrottled(ServiceError):
    """Too many reset e-mails asked for one address within the hour (whoever owns it)."""

    code = "reset-throttled"
    status = 429
    message = gettext_lazy("Too many reset e-mails were asked for this address: try again later.")


def check_password(user: User, password: str) -> None:
    if not user.check_password(password):
        raise WrongPassword(f"Wrong current password for player {user.pk}.")


def change(user: User, current: str, new: str) -> None:
    """Set `new` (already through Django's validators) once `current` is right."""
    check_password(user, current)
    user.set_password(new)
    user.save(update_fields=["password"])


def _within_quota(key: str) -> bool:
    """Count one more e-mail under `key` this hour; False once over the hourly quota."""
    cache.add(key, 0, _WINDOW_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, _WINDOW_SECONDS)
        count = 1
    return count <= settings.PASSWORD_RESET_MAILS_PER_HOUR


def request_reset(address: str, site: str) -> None:
    """E-mail a reset link to each active account whose confirmed address is `address`, in
    any letter case; nothing for an unknown or unconfirmed one. The caller cannot tell
    which, not even from a mail server's failure (logged, not refused)."""
    digest = hashlib.sha256(address.strip().lower().encode()).hexdigest()
    if not _within_quota(f"reset-address:{digest}"):
        raise ResetThrottled("Too many reset e-mails for this address this hour.")
    owners = User.objects.filter(
        email__iexact=address.strip(), is_active=True, player_settings__email_confirmed=True
    )
    for user in owners:
        if not _within_quota(f"reset-account:{user.pk}"):
            continue
        token = links.sign(
            PURPOSE, {"user": user.pk, "check": default_token_generator.make_token(user)}
        )
        link = f"{site}{RESET_PATH}?token={token}"

        def reset_mail(user: User = user, link: str = link) -> mail.Mail:
            return mail.Mail(
                subject=_("Reset your Yukon password"),
                paragraphs=[
                    _("Hello %(name)s,") % {"name": user.username},
                    _("Someone asked to reset the password of your Yukon account."),
                    _("Follow this link to choose a new password:"),
                ],
                link=link,
                link_label=_("Choose a new password"),
                closing=[
                    _("The link works once, for %(hours)s hours.")
                    % {"hours": settings.ACCOUNT_LINK_SECONDS // 3600},
                    _("If you did not ask for this, ignore this e-mail: nothing changes."),
                ],
            )

        try:
            mail.send(user, reset_mail)
        except mail.MailUnavailable:
            continue  # logged; refusing would tell that the address has an account


def reset_user(token: str, *, lock: bool = False) -> User:
    """The player a reset link's token is for (the validators compare the new password with
    their name and address), locked when `lock`; refused once the token no longer matches."""
    payload = links.unsign(PURPOSE, token, settings.ACCOUNT_LINK_SECONDS)
    players = User.objects.select_for_update() if lock else User.objects.all()
    user = players.filter(pk=int(payload.get("user", 0)), is_active=True).first()
    if user is None or not default_token_generator.check_token(user, str(payload.get("check"))):
        raise links.LinkUsed("This reset link was used, or the password changed since.")
    return user


def reset(token: str, new: str) -> User:
    """Set a new password (already through the validators) with a reset link's token."""
    with transaction.atomic():
        user = reset_user(token, lock=True)
        user.set_password(new)
        user.save(update_fields=["password"])
        sessions.sign_out_others(user, None)  # every session, its sockets told
    return user
