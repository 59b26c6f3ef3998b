"""A player's e-mail address: added or changed only through a link sent to it.

The stored address changes when the link is followed, not when it is asked for: until
then the old address (confirmed or not) stays, and the old address is told of the
request at once. Only a confirmed address receives a password reset (`passwords`).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from accounts import links, mail
from accounts.models import PlayerSettings

PURPOSE = "email-confirm"
#: The app's page a confirmation link opens (frontend/urls.py).
CONFIRM_PATH = "account/email"


def is_confirmed(user: User) -> bool:
    return PlayerSettings.objects.filter(user=user, email_confirmed=True).exists() and bool(
        user.email
    )


def request_change(user: User, address: str, site: str) -> None:
    """Send a confirmation link to `address` (`site`: the app's root URL) and tell the old
    address, if another one is stored, that a change was asked for."""
    token = links.sign(PURPOSE, {"user": user.pk, "old": user.email, "new": address})
    link = f"{site}{CONFIRM_PATH}?token={token}"
    hours = settings.ACCOUNT_LINK_SECONDS // 3600

    def confirmation() -> mail.Mail:
        return mail.Mail(
            subject=_("Confirm your e-mail address for Yukon"),
            paragraphs=[
                _("Hello %(name)s,") % {"name": user.username},
                _("Follow this link to use this address for your Yukon account:"),
            ],
            link=link,
            link_label=_("Confirm this address"),
            closing=[
                _("The link works once, for %(hours)s hours.") % {"hours": hours},
                _("If you did not ask for this, ignore this e-mail."),
            ],
        )

    mail.send(user, confirmation, to=address)
    if user.email and user.email.lower() != address.lower():

        def warning() -> mail.Mail:
            return mail.Mail(
                subject=_("Your Yukon e-mail address is being changed"),
                paragraphs=[
                    _("Hello %(name)s,") % {"name": user.username},
                    _(
                        "Someone signed in to your account asked to change its e-mail "
                        "address to %(address)s. It changes once that address confirms it."
                    )
                    % {"address": address},
                    _("If this was not you, change your password now."),
                ],
            )

        mail.send(user, warning)


def confirm(token: str) -> User:
    """Store the address a confirmation link was sent to; refused once used or outdated."""
    payload = links.unsign(PURPOSE, token, settings.ACCOUNT_LINK_SECONDS)
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=int(payload.get("user", 0))).first()
        if user is None or not user.is_active or user.email != payload.get("old"):
            raise links.LinkUsed("The address changed since this link was sent.")
        player_settings = PlayerSettings.for_user(user)
        if user.email == payload["new"] and player_settings.email_confirmed:
            raise links.LinkUsed("This address is already confirmed.")
        user.email = str(payload["new"])
        user.save(update_fields=["email"])
        player_settings.email_confirmed = True
        player_settings.save(update_fields=["email_confirmed"])
    return user
