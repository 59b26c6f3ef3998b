"""The sign-up form tells a look-alike name why it is refused, in the visitor's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.browser.conftest import DESKTOP
from tests.browser.helpers import new_context
from tests.support.servers import RunningServer

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-enough-passphrase"


@pytest.mark.parametrize(
    ("locale", "labels", "sentence"),
    [
        ("en-GB", ("Username", "Password", "Create my account"), "2 to 20 characters"),
        ("de-DE", ("Benutzername", "Passwort", "Konto anlegen"), "2 bis 20 Zeichen"),
    ],
)
def test_a_look_alike_name_is_refused_with_the_rule(
    browser: Browser,
    server: RunningServer,
    screenshots: Path,
    locale: str,
    labels: tuple[str, str, str],
    sentence: str,
) -> None:
    context = new_context(browser, server, viewport=DESKTOP, locale=locale)
    page = context.new_page()
    try:
        page.goto("/signup")
        username, password, create = labels
        page.get_by_label(username).fill("stra\N{LATIN SMALL LETTER SHARP S}e")
        page.get_by_label(password).fill(PASSWORD)
        page.get_by_role("button", name=create).click()
        expect(page.get_by_role("alert")).to_contain_text(sentence)
        page.screenshot(path=screenshots / f"username-rule-{locale}.png")
        assert not User.objects.exists()
        page.get_by_label(username).fill("strasse")
        page.get_by_role("button", name=create).click()
        expect(page).not_to_have_url(re.compile(r"/signup$"))
        assert list(User.objects.values_list("username", flat=True)) == ["strasse"]
    finally:
        context.close()
