"""An hourly arena in four browsers: alice joins from the list, bob from the arena's page
(and plays a deal without undo), carol joins late on a phone, a spectator follows on a
phone; alice wins three deals in a row (the flame), the standings move live on every
screen, and when the server's clock reaches the end every screen shows the podium and
every deal with its replay. Every deal is the known winning line's, so a win is its line."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from games.arenas.models import Arena, Seat
from tests.arenas.test_schedule import graded_deals
from tests.browser.helpers import Player, new_context
from tests.support.play import winning_line
from tests.support.servers import RunningServer

PHONE = {"width": 390, "height": 844}
CODE, LINE = winning_line()


@pytest.fixture
def carol_phone(
    browser: Browser, server: RunningServer, transactional_db: None
) -> Iterator[Player]:
    player = Player.sign_up(
        browser, server, "carol", viewport=PHONE, is_mobile=True, has_touch=True
    )
    yield player
    player.close()


@pytest.fixture
def spectator_phone(
    browser: Browser, server: RunningServer, transactional_db: None
) -> Iterator[Player]:
    context = new_context(browser, server, viewport=PHONE, is_mobile=True, has_touch=True)
    player = Player("spectator", context, context.new_page(), server)
    yield player
    player.close()


def hourly_arena() -> Arena:
    """The schedule's hourly arena as it makes one (30 minutes, started a second ago), on the
    known deal ten times over instead of graded deals."""
    now = timezone.now()
    return Arena.objects.create(
        kind=Arena.Kind.SCHEDULED,
        name="hourly",
        slot=f"hourly:{now.isoformat()}",
        rule="C",
        starts_at=now - timedelta(seconds=1),
        ends_at=now + timedelta(minutes=30),
        token=secrets.token_urlsafe(18),
        deals=[CODE] * 10,
    )


def points_of(page: Page, name: str) -> str:
    return f"#app [data-part=standings] tr[data-player='{name}'] [data-stat=points]"


def current_game(player: Player, arena: Arena) -> int:
    return int(player.api("GET", f"/arenas/{arena.pk}/game")["id"])


def win_deal(player: Player, arena: Arena) -> int:
    """Play the known line on the player's current deal (from where it stands); its id."""
    game = current_game(player, arena)
    version = player.state(game)["version"]
    player.play(game, LINE[version:])
    return game


def expect_points(screens: list[Player], name: str, points: int) -> None:
    for screen in screens:
        expect(screen.page.locator(points_of(screen.page, name))).to_have_text(str(points))


def expect_fits(page: Page) -> None:
    """Nothing wider than the phone's screen: no part scrolls the page sideways."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"


def test_an_hourly_arena_live_on_four_screens_to_its_podium(
    alice_browser: Player,
    bob_browser: Player,
    carol_phone: Player,
    spectator_phone: Player,
    screenshots: Path,
) -> None:
    arena = hourly_arena()
    alice, bob, carol, spectator = alice_browser, bob_browser, carol_phone, spectator_phone

    alice.page.goto("/arenas")
    listed = alice.page.locator(f"[data-part=running] li[data-arena='{arena.pk}']")
    expect(listed).to_contain_text("Hourly arena")
    alice.page.screenshot(path=screenshots / "arenas-list.png")
    listed.locator("[data-action=join]").click()
    expect(alice.page).to_have_url(re.compile(f"/arenas/{arena.pk}$"))
    expect(alice.page.locator("#app .board .card").first).to_be_visible()

    bob.page.goto(f"/arenas/{arena.pk}")
    bob.page.locator("[data-action=join]").click()
    expect(bob.page.locator("#app .board .card").first).to_be_visible()
    bob.page.locator("[data-action=without-undo]").click()
    expect(bob.page.locator("[data-part=without-undo]")).to_be_visible()
    expect(bob.page.locator("[data-action=undo]")).to_be_disabled()
    spectator.page.goto(f"/arenas/{arena.pk}")
    expect(spectator.page.locator("[data-part=players]")).to_have_text("2 players")

    screens = [alice, bob, spectator]
    first = win_deal(alice, arena)
    expect_points(screens, "alice", 2)
    expect(alice.page.locator("#app")).not_to_have_attribute("data-game", str(first))
    expect(alice.page.locator("[data-stat=status]")).to_contain_text("Deal 2 of 10")
    win_deal(bob, arena)  # without undo: 2 + 1
    expect_points(screens, "bob", 3)
    win_deal(alice, arena)
    expect_points(screens, "alice", 4)

    # Carol comes late, on her phone, and makes her first move on the page itself.
    carol.page.goto(f"/arenas/{arena.pk}")
    expect(carol.page.locator("[data-part=players]")).to_have_text("2 players")
    carol.page.locator("[data-action=join]").click()
    expect(carol.page.locator("#app .board .card").first).to_be_visible()
    carol.wait_for_version(0)
    carol.tap("AS")  # the line's first move: the ace home
    carol.expect_foundation("AS", 0)
    screens.append(carol)
    for screen in screens:
        expect(screen.page.locator("[data-part=players]")).to_have_text("3 players")

    win_deal(alice, arena)  # the third win in a row scores 4: 8, and the flame
    expect_points(screens, "alice", 8)
    for screen in screens:
        expect(screen.page.locator("tr[data-player='alice'] [data-part=flame]")).to_be_visible()
    expect(alice.page.locator("[data-part=mine]")).to_contain_text("your next win scores 4")
    win_deal(carol, arena)
    expect_points(screens, "carol", 2)
    expect(carol.page.locator("[data-stat=status]")).to_contain_text("Deal 2 of 10")
    # Four more seats below carol: a phone keeps the top three and its player's neighbours.
    for name in ("dave", "erin", "frank", "grace"):
        player = User.objects.create_user(name)
        Seat.objects.create(arena=arena, player=player, points=1)
    expect(alice.page.locator("tr[data-player='grace']")).to_be_visible()
    expect(carol.page.locator("tr[data-player='erin']")).to_be_visible()  # rank 5: near hers
    expect(carol.page.locator("tr[data-player='grace']")).to_be_hidden()
    expect(spectator.page.locator("tr[data-player='dave']")).to_be_hidden()
    alice.page.screenshot(path=screenshots / "arena-running-desktop.png")
    carol.page.screenshot(path=screenshots / "arena-running-phone.png")
    spectator.page.screenshot(path=screenshots / "arena-spectator-phone.png")
    expect_fits(carol.page)
    expect_fits(spectator.page)

    # The server's clock reaches the end: the feed settles the arena, every screen ends.
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now())
    for screen in screens:
        expect(screen.page.locator("#app")).to_have_attribute("data-status", "finished")
        podium = screen.page.locator("[data-part=podium] li")
        expect(podium).to_have_count(3)
        expect(podium.nth(0)).to_have_attribute("data-player", "alice")
        expect(podium.nth(1)).to_have_attribute("data-player", "bob")
        expect(podium.nth(2)).to_have_attribute("data-player", "carol")
    deals = alice.page.locator("[data-part=deals] li")
    expect(deals).to_have_count(10)
    expect(deals.nth(0)).to_contain_text(CODE)
    expect(deals.nth(0).get_by_role("link")).to_have_attribute(
        "href", re.compile(rf"/game/{first}/replay$")
    )
    expect(alice.page.locator("[data-part=my-rank]")).to_have_text("Your final rank: 1")
    alice.page.screenshot(path=screenshots / "arena-podium-desktop.png", full_page=True)
    carol.page.screenshot(path=screenshots / "arena-podium-phone.png", full_page=True)
    expect_fits(carol.page)


def test_a_private_arena_made_with_the_form_is_reached_by_its_link_only(
    alice_browser: Player, screenshots: Path
) -> None:
    graded_deals()  # the proven-winnable deals a player's arena (and the schedule) deal from
    page = alice_browser.page
    page.goto("/arenas")
    expect(page.locator("[data-part=upcoming] li").first).to_contain_text("Classic")
    page.get_by_label("Name (optional)").fill("Friday night")
    page.get_by_label("Private (not listed: reached only by its link)").check()
    page.get_by_label("Length (minutes, 10 to 180)").fill("20")
    page.screenshot(path=screenshots / "arenas-form.png", full_page=True)
    page.locator("[data-action=create-arena]").click()

    expect(page).to_have_url(re.compile(r"/arenas/[A-Za-z0-9_-]{20,}$"))
    token = page.url.rsplit("/", 1)[1]
    expect(page.locator("h1")).to_have_text("Friday night")
    expect(page.locator(".invite-link")).to_have_value(re.compile(f"/arenas/{token}$"))
    page.locator("[data-action=join]").click()
    expect(page.locator("#app .board .card").first).to_be_visible()
    expect(page.locator("[data-part=players]")).to_have_text("1 player")
    page.goto("/arenas")
    expect(page.locator("[data-part=running] h2")).to_be_visible()
    expect(page.locator(f"li[data-arena='{token}']")).to_have_count(0)


@pytest.mark.parametrize(
    ("locale", "title", "standings", "countdown"),
    [
        ("hu-HU", "Óránkénti aréna", "Állás", "van hátra"),
        ("pt-PT", "Arena horária", "Classificação", "faltam"),
        ("de-DE", "Stündliche Arena", "Stand", "noch"),
    ],
)
def test_a_visitor_reads_an_arena_in_the_browsers_language(
    browser: Browser,
    server: RunningServer,
    transactional_db: None,
    screenshots: Path,
    locale: str,
    title: str,
    standings: str,
    countdown: str,
) -> None:
    arena = hourly_arena()
    context = new_context(browser, server, locale=locale, viewport=PHONE, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"/arenas/{arena.pk}")
        expect(page.locator("h1")).to_have_text(title)
        expect(page.locator("[data-part=standings] h2")).to_have_text(standings)
        expect(page.locator("[data-part=countdown]")).to_contain_text(countdown)
        page.screenshot(path=screenshots / f"arena-{locale[:2]}-phone.png")
    finally:
        context.close()
