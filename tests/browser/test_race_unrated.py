"""A quick match of two guests says on its page that it rates nobody, and why (it said
"Rated")."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from accounts.guests import create_guest
from games.races.models import QueueEntry
from games.races.queue import GATHER_SECONDS
from tests.browser.conftest import DESKTOP
from tests.browser.helpers import new_context
from tests.support.play import post, token_client
from tests.support.races import ok
from tests.support.servers import RunningServer

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_quick_match_of_two_guests_shows_it_is_unrated(
    browser: Browser, server: RunningServer, screenshots: Path
) -> None:
    first, second = token_client(create_guest()), token_client(create_guest())
    for client in (first, second):
        ok(post(client, "/api/v1/races/queue", {"rule": "C"}))
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=GATHER_SECONDS + 1))
    room = ok(first.get("/api/v1/races/queue"))["race"]
    context = new_context(browser, server, viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"/races/{room}")
        rated = page.locator("[data-part=rated]")
        expect(rated).to_have_text("Unrated (guests)")
        expect(rated).to_have_attribute("title", re.compile("^Guests race unrated"))
        page.screenshot(path=screenshots / "race-unrated-guests.png")
    finally:
        context.close()
