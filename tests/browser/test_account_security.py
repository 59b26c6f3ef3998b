"""Account security in Chromium: turning two-factor sign-in on by reading the key the page
shows, signing in with the app's code and with a recovery code (on the log-in page and on an
app's consent sign-in), turning it off; signing out another browser's session."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pyotp
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.browser.audit import axe_violations
from tests.browser.conftest import DESKTOP
from tests.browser.helpers import PASSWORD, Player, new_context
from tests.support.oauth import REDIRECT_URI, Pkce, authorize_url
from tests.support.servers import RunningServer

pytestmark = pytest.mark.django_db(transaction=True)

PHONE: ViewportSize = {"width": 375, "height": 740}


def next_code(totp: pyotp.TOTP) -> str:
    """The app's code of the next 30-second step: the server accepts one step of drift, and a
    step after the last one used is never a replay (so no test waits for the clock)."""
    return totp.at(time.time() + totp.interval)


def turn_on_two_factor(page: Page, screenshots: Path) -> tuple[pyotp.TOTP, list[str]]:
    """On the security page, as a player with an authenticator app: the key, the first code."""
    page.goto("/security")
    page.get_by_role("button", name="Turn on two-factor sign-in").click()
    expect(page.get_by_role("img", name="QR code holding your two-factor key")).to_be_visible()
    page.screenshot(path=screenshots / "security-setup.png", full_page=True)
    totp = pyotp.TOTP(page.locator("[data-secret]").inner_text())
    page.get_by_label("Code from your authenticator app").fill("000000")
    page.get_by_role("button", name="Turn on", exact=True).click()
    expect(page.get_by_role("alert")).to_have_text(
        "That code is not right: type the code your authenticator app shows now."
    )
    page.get_by_label("Code from your authenticator app").fill(totp.now())
    page.get_by_role("button", name="Turn on", exact=True).click()
    codes = page.locator("[data-recovery-codes] li")
    expect(codes).to_have_count(10)
    return totp, codes.all_inner_texts()


def log_in_with_code(page: Page, code: str) -> None:
    """The log-in page: the password first; the code field appears, then the code."""
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_have_text(
        "Two-factor sign-in is on: type the code your authenticator app shows."
    )
    page.get_by_label("Code from your authenticator app").fill(code)
    page.get_by_role("button", name="Log in").click()


def signed_in_as_alice(page: Page) -> None:
    expect(page.get_by_role("button", name="alice", exact=True)).to_be_visible()


def me_status(player: Player) -> int:
    """What `GET /auth/me` answers this player's browser: 200 signed in, 401 signed out."""
    return player.context.request.get("/api/v1/auth/me").status


def fresh_page(browser: Browser, server: RunningServer) -> tuple[BrowserContext, Page]:
    context = new_context(browser, server, viewport=DESKTOP)
    return context, context.new_page()


def test_two_factor_on_sign_in_with_the_app_and_a_recovery_code_then_off(
    alice_browser: Player, browser: Browser, server: RunningServer, screenshots: Path
) -> None:
    page = alice_browser.page
    totp, recovery = turn_on_two_factor(page, screenshots)
    assert axe_violations(page) == []
    page.screenshot(path=screenshots / "security-recovery-codes.png", full_page=True)
    page.get_by_role("button", name="I have kept them").click()
    expect(page.locator("[data-two-factor]")).to_contain_text("On. 10 recovery codes left.")

    context, other = fresh_page(browser, server)
    try:
        other.goto("/login")
        app_code = next_code(totp)
        log_in_with_code(other, app_code)
        signed_in_as_alice(other)
        # The same code again, from another browser: refused, it was used.
        context.clear_cookies()
        other.goto("/login")
        log_in_with_code(other, app_code)
        expect(other.get_by_role("alert")).to_have_text(
            "That code was already used: wait for the next one in your authenticator app."
        )
        other.screenshot(path=screenshots / "login-second-factor.png")
        # A recovery code, typed in lower case, signs in once.
        other.get_by_label("Code from your authenticator app").fill(recovery[0].lower())
        other.get_by_role("button", name="Log in").click()
        signed_in_as_alice(other)
    finally:
        context.close()

    page.reload()
    expect(page.locator("[data-two-factor]")).to_contain_text("On. 9 recovery codes left.")
    page.get_by_label("Code from your authenticator app").fill(recovery[1])
    page.get_by_role("button", name="Turn off").click()
    expect(page.get_by_role("button", name="Turn on two-factor sign-in")).to_be_visible()
    assert alice_browser.api("GET", "/me/two-factor")["enabled"] is False


def test_an_apps_consent_sign_in_asks_for_the_second_factor(
    alice_browser: Player, browser: Browser, server: RunningServer
) -> None:
    setup = alice_browser.api("POST", "/me/two-factor/setup")
    totp = pyotp.TOTP(setup["secret"])
    alice_browser.api("POST", "/me/two-factor/confirm", {"code": totp.now()})
    app = alice_browser.api(
        "POST", "/oauth/apps", {"name": "Solver bot", "redirect_uris": [REDIRECT_URI]}
    )
    context, page = fresh_page(browser, server)
    try:
        page.goto(authorize_url(app["client_id"], Pkce.new(), "game:read"))
        expect(page).to_have_url(re.compile(r"/login\?next=/oauth/authorize/"))
        log_in_with_code(page, next_code(totp))
        expect(
            page.get_by_role("heading", name="Allow “Solver bot” to use your Yukon account?")
        ).to_be_visible()
        expect(page.get_by_role("button", name="Allow")).to_be_visible()
    finally:
        context.close()


def test_signing_out_another_browser_and_everywhere_else(
    alice_browser: Player, browser: Browser, server: RunningServer, screenshots: Path
) -> None:
    phone = Player.log_in(browser, server, "alice", viewport=DESKTOP)
    tablet = Player.log_in(browser, server, "alice", viewport=DESKTOP)
    try:
        page = alice_browser.page
        page.goto("/security")
        rows = page.locator("[data-sessions] tbody tr")
        expect(rows).to_have_count(3)
        expect(page.locator("[data-sessions] tr.mine")).to_contain_text("this browser")
        expect(rows.first).to_contain_text("Chrome on Linux")
        assert axe_violations(page) == []
        page.screenshot(path=screenshots / "security-sessions.png", full_page=True)

        phone_row = rows.filter(has_not=page.locator("strong")).first
        phone_row.get_by_role("button", name="Sign out Chrome on Linux").click()
        expect(rows).to_have_count(2)
        expect(page.get_by_role("status").filter(has_text="Signed out")).to_have_text(
            "Signed out: Chrome on Linux."
        )
        signed_out = [p for p in (phone, tablet) if me_status(p) == 401]
        assert len(signed_out) == 1

        page.get_by_role("button", name="Sign out everywhere else").click()
        expect(page.get_by_role("status").filter(has_text="other")).to_have_text(
            "1 other session signed out."
        )
        expect(rows).to_have_count(1)
        assert me_status(phone) == me_status(tablet) == 401
        assert me_status(alice_browser) == 200
        # A signed-out browser's own page sends it to log in.
        tablet.page.goto("/security")
        expect(tablet.page).to_have_url(f"{server.url}/login")
        # On a phone the page fits its width.
        page.set_viewport_size(PHONE)
        page.reload()
        expect(rows).to_have_count(1)
        page.screenshot(path=screenshots / "security-phone.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        phone.close()
        tablet.close()
