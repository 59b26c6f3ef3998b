"""The account tests' mail server: a real SMTP server the service sends through."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache

from tests.support.smtp import Mailbox, smtp_server


@pytest.fixture
def mailbox(settings: Any) -> Iterator[Mailbox]:
    with smtp_server() as box:
        settings.MAILERS = {"default": box.mailer()}
        yield box


@pytest.fixture(autouse=True)
def _fresh_reset_quotas() -> Iterator[None]:
    """Reset e-mail quotas count in the cache: each test starts with none spent."""
    cache.clear()
    yield
    cache.clear()
