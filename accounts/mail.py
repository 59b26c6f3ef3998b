"""E-mail to a player: in the player's language, a plain-text part and an HTML one.

The backend and the SMTP server are settings (`EMAIL_*`, docs/configuration.md): a first
run prints each e-mail on the console; the tests send through a real SMTP server.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from accounts.language import player_language
from ops.errors import ServiceError

logger = logging.getLogger(__name__)


class MailUnavailable(ServiceError):
    """The SMTP server refused or could not be reached: nothing was sent."""

    code = "mail-unavailable"
    status = 503
    message = _("E-mail cannot be sent right now: try again in a few minutes.")


@dataclass(frozen=True)
class Mail:
    """What one e-mail says: its paragraphs, then the link to follow (if any)."""

    subject: str
    paragraphs: list[str]
    link: str = ""
    link_label: str = ""
    closing: list[str] = field(default_factory=list)


def send(user: User, compose: Callable[[], Mail], *, to: str = "") -> None:
    """Send what `compose` writes, composed in `user`'s language (their stored choice, else
    the language of the request that caused it), to `to` or else the user's address;
    `MailUnavailable` when the mail server does not take it."""
    with translation.override(player_language(user) or translation.get_language()):
        mail = compose()
    blocks = [*mail.paragraphs, *([mail.link] if mail.link else []), *mail.closing]
    html = format_html_join("", "<p>{}</p>", ((text,) for text in mail.paragraphs))
    if mail.link:
        html += format_html('<p><a href="{}">{}</a></p>', mail.link, mail.link_label)
    html += format_html_join("", "<p>{}</p>", ((text,) for text in mail.closing))
    message = EmailMultiAlternatives(
        subject=mail.subject,
        body="\n\n".join(blocks) + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to or user.email],
    )
    message.attach_alternative(f"<!DOCTYPE html><html><body>{html}</body></html>", "text/html")
    try:
        message.send()
    except (smtplib.SMTPException, OSError) as error:
        logger.error("e-mail to player %s not sent: %s", user.pk, error)
        raise MailUnavailable(f"The mail server did not take the e-mail: {error}") from error
