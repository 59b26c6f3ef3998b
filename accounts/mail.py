"""E-mail to a player: in the player's language, a plain-text part and an HTML one.

The backend and the SMTP server are settings (`EMAIL_*`, docs/configuration.md): a first
run prints each e-mail on the console; the tests send through a real SMTP server.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives
from django.utils import translation
from django.utils.html import format_html, format_html_join

from accounts.language import player_language


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
    the language of the request that caused it), to `to` or else the user's address."""
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
    message.send()
