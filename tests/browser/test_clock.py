"""The clock at the table, in Chromium: time at the table, parked while the game is kept for
later or its tab hidden, running again on return (issue 32: a parked 3-move game showed 13:59).

Hiding a tab is what the browser tells the page (`visibilitychange` with `document.hidden`);
the tests say it the same way, and watch the page tell the server (`park`, `resume`).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import Player, started
from tests.support.play import winning_line

CODE, LINE = winning_line()

pytestmark = pytest.mark.django_db(transaction=True)


def set_visibility(page: Page, state: str) -> None:
    """What the browser does when the tab is hidden or shown again."""
    page.evaluate(
        """(state) => {
            const define = (name, value) =>
                Object.defineProperty(document, name, {value, configurable: true});
            define('visibilityState', state);
            define('hidden', state === 'hidden');
            document.dispatchEvent(new Event('visibilitychange'));
        }""",
        state,
    )


def shown_seconds(page: Page) -> int:
    minutes, seconds = page.locator("[data-stat=time]").inner_text().split(":")[-2:]
    return int(minutes) * 60 + int(seconds)


def test_a_hidden_tab_parks_the_game_and_coming_back_resumes_it(alice_browser: Player) -> None:
    page = alice_browser.page
    game_id = started(alice_browser)
    alice_browser.tap("AS")
    alice_browser.wait_for_version(1)
    assert alice_browser.state(game_id)["clock_running"] is True

    with page.expect_response(f"**/api/v1/games/{game_id}/park"):
        set_visibility(page, "hidden")
    parked = alice_browser.state(game_id)
    assert parked["clock_running"] is False
    assert alice_browser.state(game_id)["elapsed_seconds"] == parked["elapsed_seconds"]

    with page.expect_response(f"**/api/v1/games/{game_id}/resume") as answer:
        set_visibility(page, "visible")
    resumed = answer.value.json()
    assert resumed["clock_running"] is True
    assert resumed["elapsed_seconds"] >= parked["elapsed_seconds"]
    assert resumed["version"] == 1  # the clock is no move


def test_a_game_kept_for_later_is_parked_and_shows_its_time_on_return(
    alice_browser: Player,
) -> None:
    """The issue's game: three moves, "Keep it for later", another deal, and back."""
    page = alice_browser.page
    game_id = started(alice_browser)
    for move in LINE[:3]:
        alice_browser.play(game_id, [move])
    alice_browser.open_game(game_id)
    page.get_by_role("button", name="New game").click()
    page.get_by_role("dialog", name="This game is not finished").get_by_role(
        "button", name="Keep it for later"
    ).click()
    with page.expect_response(f"**/api/v1/games/{game_id}/park"):
        page.get_by_role("dialog", name="New game").get_by_role("button", name="Deal").click()
        expect(page).not_to_have_url(re.compile(rf"/game/{game_id}$"))
    kept = alice_browser.state(game_id)
    assert kept["clock_running"] is False and kept["status"] == "active"
    assert alice_browser.state(game_id)["elapsed_seconds"] == kept["elapsed_seconds"]

    with page.expect_response(f"**/api/v1/games/{game_id}/resume"):
        alice_browser.open_game(game_id)
    assert abs(shown_seconds(page) - kept["elapsed_seconds"]) <= 1.5
    note = page.locator("[data-note=clock]")
    expect(note).to_have_attribute("data-text", re.compile("stops while the game is parked"))
