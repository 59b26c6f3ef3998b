"""The other pages in Chromium: sign up, log in and out, settings, my games, API tokens."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route, expect

from tests.browser.conftest import DESKTOP
from tests.browser.helpers import PASSWORD, Player, new_context
from tests.support.play import winning_line
from tests.support.servers import RunningServer

CODE, _ = winning_line()
#: Go to a path as the app's own links do (the router, no page load).
OPEN_WITHOUT_RELOAD = """path => {
    history.pushState(null, '', path);
    dispatchEvent(new PopStateEvent('popstate'));
}"""

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_up_log_out_and_log_in(browser: Browser, server: RunningServer) -> None:
    context = new_context(browser, server, viewport=DESKTOP)
    page = context.new_page()
    try:
        page.goto("/signup")
        page.get_by_label("Username").fill("dora")
        page.get_by_label("Password").fill("short")
        page.get_by_role("button", name="Create my account").click()
        expect(page.get_by_role("alert")).to_contain_text("too short")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Create my account").click()
        expect(page.get_by_role("dialog", name="New game")).to_be_visible()
        page.get_by_role("dialog").get_by_role("button", name="Deal").click()
        expect(page.locator("[data-stat=code]")).to_contain_text("YU1-C-")
        page.get_by_role("button", name="dora", exact=True).click()  # the account's menu
        page.get_by_role("button", name="Log out (dora)").click()
        expect(page).to_have_url(f"{server.url}/login")
        page.get_by_label("Username").fill("dora")
        page.get_by_label("Password").fill("wrong password")
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_role("alert")).to_have_text("Wrong username or password.")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        expect(page.locator("[data-stat=code]")).to_contain_text("YU1-C-")
    finally:
        context.close()


def test_settings_are_saved_and_used_at_the_table(alice_browser: Player) -> None:
    page = alice_browser.page
    page.goto("/settings")
    page.get_by_label("Four-colour suits").check()
    expect(page.get_by_role("status").filter(has_text="Saved")).to_contain_text(
        "Four-colour suits on"
    )
    page.get_by_label("Interactive rules").uncheck()
    expect(page.get_by_role("status").filter(has_text="Saved")).to_contain_text("off")
    assert alice_browser.api("GET", "/me/settings")["interactive_rules"] is False
    game_id = int(alice_browser.new_game(CODE)["id"])
    alice_browser.open_game(game_id)
    expect(page.locator(".board")).to_have_class("board four-colour")
    alice_browser.drag("5S", "slot-c1")
    expect(page.locator("#messages .message")).to_have_text("That move is not allowed.")


def test_the_account_menu_leads_to_my_profile_and_my_pages(
    alice_browser: Player, screenshots: Path
) -> None:
    page = alice_browser.page
    page.goto("/rules")
    menu = page.get_by_role("button", name="alice", exact=True)
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(page.get_by_role("link", name="My profile")).to_be_hidden()
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    page.screenshot(path=str(screenshots / "account-menu-1280x800.png"))
    expect(page.locator("#account-items a")).to_have_text(
        ["My profile", "My games", "Settings", "Account", "Account security", "API tokens"]
    )
    page.keyboard.press("Escape")
    expect(page.get_by_role("link", name="My profile")).to_be_hidden()
    expect(menu).to_be_focused()
    menu.click()
    page.get_by_role("link", name="My profile").click()
    expect(page).to_have_url(f"{alice_browser.server.url}/players/alice")
    expect(page.get_by_role("heading", level=1)).to_have_text("alice")
    expect(page.get_by_role("link", name="My profile")).to_be_hidden()


def test_a_page_still_loading_never_draws_over_the_next_one(alice_browser: Player) -> None:
    """Moving on while a page waits for its data (a busy server): the page asked for last is
    the one that stays drawn, whichever answer comes last, and the late one's socket closes."""
    game_id = int(alice_browser.new_game(CODE)["id"])
    page = alice_browser.page
    page.goto("/rules")
    held: list[Route] = []
    page.route(f"**/api/v1/games/{game_id}", lambda route: held.append(route))
    with page.expect_request(f"**/api/v1/games/{game_id}"):
        page.evaluate(OPEN_WITHOUT_RELOAD, f"/game/{game_id}")
    page.locator("#nav").get_by_role("link", name="Leaderboards").click()
    expect(page.locator(".board-body .empty")).to_have_text("Nobody is on this board yet.")
    with page.expect_websocket(lambda socket: f"/ws/v1/games/{game_id}/" in socket.url) as late:
        held[0].continue_()  # the table draws now, late, out of sight
    expect(page.locator("#app .board")).to_have_count(0)
    if not late.value.is_closed():
        late.value.wait_for_event("close")  # and the router cleans it up at once
    expect(page.get_by_role("heading", level=1)).to_have_text("Leaderboards")
    expect(page).to_have_url(f"{alice_browser.server.url}/leaderboards")


def test_my_games_lists_and_links_my_games(alice_browser: Player) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    alice_browser.page.goto("/games")
    link = alice_browser.page.get_by_role("link", name=CODE)
    expect(link).to_have_attribute("href", f"/game/{game_id}")
    link.click()
    alice_browser.wait_for_version(0)


def test_an_api_token_is_shown_once_and_can_be_revoked(alice_browser: Player) -> None:
    page = alice_browser.page
    page.goto("/tokens")
    page.get_by_label("Token name").fill("my bot")
    page.get_by_role("button", name="Create token").click()
    secret = page.locator("[data-token]")
    expect(secret).to_contain_text("yk_")
    raw = secret.inner_text()
    response = alice_browser.context.request.get(
        "/api/v1/auth/me", headers={"Authorization": f"Bearer {raw}"}
    )
    assert response.json()["username"] == "alice"
    page.reload()
    expect(page.get_by_role("cell", name="my bot", exact=True)).to_be_visible()
    expect(page.locator("[data-token]")).to_have_count(0)
    assert raw not in page.content()
    page.get_by_role("button", name="Revoke my bot").click()
    expect(page.get_by_role("cell", name="my bot", exact=True)).to_have_count(0)


def test_the_daily_and_leaderboard_pages_load(alice_browser: Player) -> None:
    for path, title in (("/daily", "Today's daily deal"), ("/leaderboards", "Leaderboards")):
        alice_browser.page.goto(path)
        expect(alice_browser.page.get_by_role("heading", level=1)).to_have_text(title)
