"""Your account in a real browser: an address confirmed and a forgotten password reset by
following the links of e-mails read from a real SMTP server; a password changed, the data
downloaded (built by a real task worker), the account deleted."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from accounts.models import PlayerSettings
from tests.browser.audit import axe_violations
from tests.browser.conftest import DESKTOP, SERVER_ENV
from tests.browser.helpers import PASSWORD, WINNING_CODE, Player, new_context
from tests.support.servers import RunningServer, asgi_server, task_worker
from tests.support.smtp import Mailbox, link_in, smtp_server, text_of

NEW_PASSWORD = "a brand new sentence 42"


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    with smtp_server() as box:
        yield box


@pytest.fixture(scope="module")
def server(
    django_db_setup: None, django_db_blocker: object, mailbox: Mailbox
) -> Iterator[RunningServer]:
    """This module's own server and worker: they send e-mail to the test SMTP server."""
    env = {**SERVER_ENV, **mailbox.settings()}
    with asgi_server(env) as running, task_worker("account-tests", env):
        yield running


def test_an_address_confirmed_then_a_forgotten_password_reset_by_e_mail(
    alice_browser: Player,
    browser: Browser,
    server: RunningServer,
    mailbox: Mailbox,
    screenshots: Path,
) -> None:
    page = alice_browser.page
    page.goto("/settings")
    page.get_by_role(
        "link", name="E-mail address, password, your data, deleting the account"
    ).click()
    expect(page).to_have_url(re.compile(r"/account$"))
    page.get_by_label("E-mail address", exact=True).fill("alice@example.org")
    page.get_by_role("button", name="Send a confirmation link").click()
    expect(page.get_by_role("status").first).to_contain_text("alice@example.org")
    page.screenshot(path=screenshots / "account.png", full_page=True)
    assert axe_violations(page) == []

    page.goto(link_in(mailbox.wait_for("alice@example.org")))
    expect(page.get_by_role("status")).to_contain_text("Your address is confirmed")
    assert PlayerSettings.objects.get(user__username="alice").email_confirmed

    stranger = new_context(browser, server, viewport=DESKTOP).new_page()
    stranger.goto("/login")
    stranger.get_by_role("link", name="Forgot your password?").click()
    stranger.get_by_label("E-mail address").fill("ALICE@example.org")
    stranger.get_by_role("button", name="Send me a link").click()
    expect(stranger.get_by_role("status")).to_contain_text("a link to choose a new password")
    stranger.screenshot(path=screenshots / "account-forgot.png")

    stranger.goto(link_in(mailbox.wait_for("alice@example.org", 2)))
    stranger.get_by_label("New password").fill("123")
    stranger.get_by_role("button", name="Save the new password").click()
    expect(stranger.get_by_role("alert")).to_contain_text("too short")
    stranger.get_by_label("New password").fill(NEW_PASSWORD)
    stranger.get_by_role("button", name="Save the new password").click()
    expect(stranger.get_by_role("heading", name="Your password is changed.")).to_be_visible()
    stranger.screenshot(path=screenshots / "account-reset.png")

    page.goto("/account")  # every session ended with the reset: alice's too
    expect(page).to_have_url(re.compile(r"/login$"))
    stranger.reload()  # the same link again
    stranger.get_by_label("New password").fill("yet another sentence 7")
    stranger.get_by_role("button", name="Save the new password").click()
    expect(stranger.get_by_role("alert")).to_contain_text("link was used")
    assert User.objects.get(username="alice").check_password(NEW_PASSWORD)


def test_a_password_changed_the_data_downloaded_and_the_account_deleted(
    alice_browser: Player, screenshots: Path
) -> None:
    page = alice_browser.page
    alice_browser.new_game(WINNING_CODE)  # one game for the archive
    page.goto("/account")
    page.get_by_label("Current password").fill(PASSWORD)
    page.get_by_label("New password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_text("Your password is changed.")).to_be_visible()

    page.get_by_role("button", name="Prepare my data").click()
    download_link = page.get_by_role("link", name=re.compile("Download the archive"))
    with page.expect_download() as started:
        download_link.click()
    archive = zipfile.ZipFile(io.BytesIO(Path(started.value.path()).read_bytes()))
    assert "games.csv" in archive.namelist()
    assert WINNING_CODE in archive.read("games.csv").decode()
    page.screenshot(path=screenshots / "account-export.png", full_page=True)

    page.locator("form", has_text="Delete my account").get_by_label("Password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Delete my account for good").first.click()
    page.locator("dialog").get_by_role("button", name="Delete my account for good").click()
    expect(page.get_by_role("link", name="Log in").first).to_be_visible()
    assert not User.objects.filter(username="alice").exists()


def test_the_account_page_and_its_e_mail_speak_the_players_language(
    alice_browser: Player, mailbox: Mailbox, screenshots: Path
) -> None:
    # As the settings page leaves it: the stored choice, and the language cookie of the device.
    PlayerSettings.objects.update_or_create(user__username="alice", defaults={"language": "de"})
    page = alice_browser.page
    page.context.add_cookies(
        [{"name": "django_language", "value": "de", "url": alice_browser.server.url}]
    )
    page.goto("/account")
    expect(page.get_by_role("heading", name="Dein Konto")).to_be_visible()
    page.get_by_label("E-Mail-Adresse", exact=True).fill("alice@example.de")
    page.get_by_role("button", name="Bestätigungslink senden").click()
    expect(
        page.get_by_text("Ein Bestätigungslink wurde an alice@example.de geschickt.")
    ).to_be_visible()
    page.screenshot(path=screenshots / "account-de.png", full_page=True)
    message = mailbox.wait_for("alice@example.de")
    assert message["Subject"] == "Bestätige deine E-Mail-Adresse für Yukon"
    assert "Folge diesem Link" in text_of(message)
