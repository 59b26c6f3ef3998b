"""Staff in a real browser: the fair-play list names two accounts of one browser on today's
daily, and a name opens the admin's form to mark it, which lands in the moderation log."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, expect

from accounts.models import Mark
from games import deals
from games.engine import GameCode, private_form
from games.models import Game
from tests.browser.conftest import DESKTOP
from tests.browser.helpers import PASSWORD, WINNING_CODE, Player, new_context
from tests.support.servers import RunningServer


def test_staff_mark_an_account_the_fair_play_list_shows(
    browser: Browser, server: RunningServer, transactional_db: None, screenshots: Path
) -> None:
    alice = Player.sign_up(browser, server, "alice", viewport=DESKTOP)
    alice.api("POST", "/auth/logout")
    signed_up = alice.context.request.post(
        "/api/v1/auth/register", data={"username": "bob", "password": PASSWORD}
    )
    assert signed_up.ok, signed_up.text()
    for owner in User.objects.filter(username__in=("alice", "bob")):
        Game.objects.create(
            owner=owner,
            code=WINNING_CODE,
            state=private_form(deals.new_game(GameCode.parse(WINNING_CODE))),
            daily_date=timezone.now().date(),
            ranked=True,
        )
    User.objects.create_superuser("warden", password=PASSWORD)
    staff = new_context(browser, server, viewport=DESKTOP)
    # Staff sign in as everyone does (the admin's own form hands over to /login, where the
    # second factor is asked: accounts/two_factor.py), then open the list.
    signed_in = staff.request.post(
        "/api/v1/auth/login", data={"username": "warden", "password": PASSWORD}
    )
    assert signed_in.ok, signed_in.text()
    page = staff.new_page()
    page.goto("/admin/accounts/playsource/")
    expect(page.locator("#shared-play")).to_contain_text("alice, bob")
    expect(page.locator("#shared-play")).to_contain_text("one browser")
    page.screenshot(path=screenshots / "admin-fair-play-list.png", full_page=True)

    page.get_by_role("link", name="alice").first.click()  # the form, for alice, to mark
    expect(page.locator("#id_action")).to_have_value("mark")
    expect(page.locator("#select2-id_user-container")).to_have_text("alice")
    page.fill("#id_reason", "one browser with bob on the daily")
    page.screenshot(path=screenshots / "admin-mark-account.png", full_page=True)
    page.click("input[name=_save]")
    expect(page.locator("#result_list")).to_contain_text("one browser with bob on the daily")
    page.screenshot(path=screenshots / "admin-moderation-log.png", full_page=True)
    assert Mark.objects.filter(user__username="alice").exists()
    staff.close()
    alice.close()
