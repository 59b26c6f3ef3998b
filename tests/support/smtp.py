"""A real SMTP server the tests start (aiosmtpd), and what arrived at it.

The service sends through Django's SMTP backend to it, exactly as to a production relay;
a test then reads the e-mails (parsed with the standard library) and follows their links.
"""

from __future__ import annotations

import email
import email.policy
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from scripts.processes import free_port
from tests.support.waiting import wait_until

LINK = re.compile(r"https?://\S+")


@dataclass
class Mailbox:
    """Every e-mail the server received, in order."""

    host: str
    port: int
    received: list[EmailMessage] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        assert isinstance(envelope.content, bytes)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self.lock:
            self.received.append(message)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.received if address.lower() in str(m["To"]).lower()]

    def wait_for(self, address: str, count: int = 1) -> EmailMessage:
        """The `count`-th e-mail to `address`, once it has arrived."""
        found = wait_until(
            lambda: self.to(address)[count - 1 : count],
            lambda: f"e-mail {count} to {address}; received: {[m['To'] for m in self.received]}",
        )
        return found[0]

    def mailer(self) -> dict[str, object]:
        """Django's `MAILERS` entry that sends to this server."""
        return {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": self.host, "port": self.port, "timeout": 10},
        }

    def settings(self) -> dict[str, str]:
        """The environment that points the service at this server."""
        return {"EMAIL_HOST": self.host, "EMAIL_PORT": str(self.port)}


def text_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None, "the e-mail has no plain-text part"
    return str(part.get_content())


def link_in(message: EmailMessage) -> str:
    found = LINK.search(text_of(message))
    assert found, f"no link in: {text_of(message)}"
    return found.group(0)


@contextmanager
def smtp_server() -> Iterator[Mailbox]:
    mailbox = Mailbox("127.0.0.1", free_port())
    controller = Controller(mailbox, hostname=mailbox.host, port=mailbox.port)
    controller.start()
    try:
        yield mailbox
    finally:
        controller.stop()
