"""The table on a phone and the header on a laptop (issue 32), judged by geometry.

On a phone (390 by 844 px, touch) the navigation folds under a Menu button, the game bar keeps to
one row, the tableau starts within 200 px of the top and the seven columns span the width. At
1366 px and wider the header keeps to one row in every language, for a visitor, a guest and a
player alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.audit import axe_violations
from tests.browser.helpers import Player, new_context, started
from tests.support.servers import RunningServer

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1366, "height": 768}
LANGUAGES = ("en", "hu", "pt", "de")

pytestmark = pytest.mark.django_db(transaction=True)

#: The boxes of what the table shows: the header, the bar's visible parts, the columns; and
#: the bar's labels and figures wider than their box (they would run into the next one).
TABLE_GEOMETRY = """() => {
    const box = (el) => el.getBoundingClientRect().toJSON();
    const shown = (el) => el.getClientRects().length > 0;
    const bar = document.querySelector('.infobar');
    return {
        header: box(document.querySelector('header.top')),
        bar: box(bar),
        barScrolls: bar.scrollWidth > bar.clientWidth,
        barParts: [...bar.querySelectorAll('.stat:not(.code-stat), .controls > *, .more-toggle')]
            .filter(shown).map(el => ({ text: el.innerText, ...box(el) })),
        spills: [...bar.querySelectorAll('.stat:not(.code-stat) > *')]
            .filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.innerText),
        columns: [1, 2, 3, 4, 5, 6, 7].map(col => box(document.getElementById(`slot-c${col}`))),
        code: box(document.querySelector('.code-stat')),
        status: box(document.querySelector('.table-head .status')),
        card: box(document.querySelector('.card')),
        pageWidth: document.documentElement.scrollWidth,
    };
}"""


def geometry(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(TABLE_GEOMETRY))


@pytest.fixture
def phone_player(
    browser: Browser, server: RunningServer, transactional_db: None
) -> Iterator[Player]:
    player = Player.sign_up(
        browser, server, "alice", viewport=PHONE, is_mobile=True, has_touch=True
    )
    yield player
    player.close()


def test_a_phone_folds_the_navigation_and_gives_the_table_the_screen(
    phone_player: Player, screenshots: Path
) -> None:
    page = phone_player.page
    started(phone_player)
    shape = geometry(page)
    page.screenshot(path=str(screenshots / "phone-table-390x844.png"))

    assert shape["header"]["height"] <= 52, f"the header is {shape['header']['height']} px"
    expect(page.get_by_role("button", name="Menu")).to_be_visible()
    expect(page.locator("#nav")).to_be_hidden()

    parts = shape["barParts"]
    tops = {round(part["top"]) for part in parts}
    assert max(tops) - min(tops) <= 6, f"the game bar wraps: {parts}"
    assert not shape["barScrolls"]
    for part in parts:
        assert 0 <= part["left"] and part["right"] <= PHONE["width"], f"clipped: {part}"

    # The code shares the status line, under the bar and over the foundations.
    assert shape["code"]["top"] >= shape["status"]["top"] - 2
    assert shape["code"]["bottom"] <= shape["status"]["bottom"] + 2
    columns = shape["columns"]
    assert columns[0]["top"] <= 200, f"the tableau starts at {columns[0]['top']} px"
    span = columns[6]["right"] - columns[0]["left"]
    assert span >= 0.9 * PHONE["width"], f"the columns span {span} of {PHONE['width']} px"
    assert shape["card"]["width"] >= 52, f"cards {shape['card']['width']} px wide"
    assert shape["pageWidth"] <= PHONE["width"], "the page scrolls sideways"

    page.get_by_role("button", name="More").click()
    new_game = page.get_by_role("button", name="New game")
    expect(new_game).to_be_visible()
    box = new_game.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=str(screenshots / "phone-table-more-390x844.png"))
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    expect(new_game).to_be_hidden()

    page.get_by_role("button", name="Menu").click()
    nav = page.locator("#nav")
    expect(nav.get_by_role("link", name="Leaderboards")).to_be_visible()
    expect(nav.get_by_role("link", name="My profile")).to_have_attribute("href", "/players/alice")
    expect(page.locator("#language")).to_be_visible()
    page.screenshot(path=str(screenshots / "phone-menu-390x844.png"))
    assert axe_violations(page) == []
    nav.get_by_role("link", name="Leaderboards").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Leaderboards")
    expect(nav).to_be_hidden()


def test_the_phone_bar_keeps_to_one_row_in_every_language(
    phone_player: Player, screenshots: Path
) -> None:
    """Hungarian and German words are longer: the bar still fits its row, nothing clipped."""
    game_id = started(phone_player)
    for language in LANGUAGES:
        phone_player.api("PATCH", "/me/settings", {"language": language})
        phone_player.open_game(game_id)
        expect(phone_player.page.locator("html")).to_have_attribute("lang", language)
        shape = geometry(phone_player.page)
        parts = shape["barParts"]
        assert max(p["top"] for p in parts) - min(p["top"] for p in parts) <= 6, parts
        assert all(0 <= p["left"] and p["right"] <= PHONE["width"] for p in parts), parts
        assert not shape["barScrolls"], language
        assert not shape["spills"], f"{language}: wider than their figure: {shape['spills']}"
        assert shape["columns"][0]["top"] <= 200, language
        phone_player.page.screenshot(path=str(screenshots / f"phone-table-{language}.png"))


def header_rows(page: Page) -> dict[str, Any]:
    """The header's height, whether it folded, and the tops of what it shows in its row."""
    return dict(
        page.evaluate(
            """() => {
                const header = document.querySelector('header.top');
                const parts = [...header.querySelectorAll(
                    '.brand, #nav > a, .account > a, .account > button, #language')]
                    .filter(el => el.getClientRects().length > 0);
                return {
                    height: header.getBoundingClientRect().height,
                    folded: header.classList.contains('compact'),
                    right: Math.max(...parts.map(el => el.getBoundingClientRect().right)),
                    tops: parts.map(el => Math.round(el.getBoundingClientRect().top)),
                };
            }"""
        )
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_header_keeps_to_one_row_at_1366_in_every_language(
    browser: Browser,
    server: RunningServer,
    transactional_db: None,
    screenshots: Path,
    language: str,
) -> None:
    """A visitor, a guest (whose "sign up" button is the longest) and a player with a long
    name: the whole navigation in one row, nothing folded."""
    visitor = new_context(browser, server, viewport=LAPTOP, locale=language)
    visitor.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    player = Player.sign_up(browser, server, "annabelle_longname", viewport=LAPTOP)
    try:
        player.api("PATCH", "/me/settings", {"language": language})
        guest = visitor.new_page()
        for who, page in (("visitor", visitor.new_page()), ("player", player.page)):
            page.goto("/daily")
            expect(page.locator("html")).to_have_attribute("lang", language)
            row = header_rows(page)
            assert not row["folded"], f"{who}: the header folded at 1366 px"
            assert row["right"] <= LAPTOP["width"]
            assert max(row["tops"]) - min(row["tops"]) <= 8, f"{who}: {row}"
            assert row["height"] <= 52, f"{who}: the header is {row['height']} px"
        guest.goto("/")
        guest.locator("[data-action=play-now]").click()
        guest.wait_for_url("**/game/*")
        row = header_rows(guest)
        assert not row["folded"], "guest: the header folded at 1366 px"
        assert max(row["tops"]) - min(row["tops"]) <= 8, f"guest: {row}"
        assert row["height"] <= 52, f"guest: the header is {row['height']} px"
        guest.screenshot(
            path=str(screenshots / f"header-1366-guest-{language}.png"),
            clip={"x": 0, "y": 0, "width": 1366, "height": 120},
        )
        player.page.screenshot(
            path=str(screenshots / f"header-1366-{language}.png"),
            clip={"x": 0, "y": 0, "width": 1366, "height": 120},
        )
    finally:
        visitor.close()
        player.close()
