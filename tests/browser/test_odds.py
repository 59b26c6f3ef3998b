"""The odds of Yukon in a browser: the page in every language and on a phone, a graded new
game from the dialog, the daily deal's grade once a worker has worked it out."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from games.odds import dataset
from games.odds.models import DealResult
from tests.browser.helpers import Player, new_context
from tests.support.odds import HARD, measured
from tests.support.servers import RunningServer

PHONE: ViewportSize = {"width": 390, "height": 844}
#: The page's heading (also the rules page's link to it) and a word of each rule card.
WORDS = {
    "en": ("The odds of Yukon", "Undecided"),
    "hu": ("A Yukon esélyei", "Eldöntetlen"),
    "pt": ("As probabilidades do Yukon", "Por decidir"),
    "de": ("Die Gewinnchancen von Yukon", "Nicht entschieden"),
}


@pytest.mark.parametrize("language", list(WORDS))
def test_the_odds_page_in_each_language(
    browser: Browser,
    server: RunningServer,
    transactional_db: None,
    screenshots: Path,
    language: str,
) -> None:
    published = dataset.load()  # the committed sample, as `make run` loads it
    title, undecided = WORDS[language]
    context = new_context(browser, server, viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    try:
        page = context.new_page()
        page.goto("/rules")
        page.get_by_role("link", name=title, exact=True).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(title)
        measured_rules = set(DealResult.objects.values_list("rule", flat=True).distinct())
        expect(page.locator("[data-range]")).to_have_count(len(measured_rules))
        card = page.locator(f".stats-card[data-rule={sorted(measured_rules)[0]}]")
        expect(card.locator("dt", has_text=undecided)).to_be_visible()
        page.screenshot(path=screenshots / f"odds-{language}.png", full_page=True)

        link = page.locator("a[data-csv=all]")
        answer = context.request.get(link.get_attribute("href") or "")
        assert answer.status == 200 and answer.headers["content-type"].startswith("text/csv")
        rows = list(csv.reader(io.StringIO(answer.text())))
        # The sample only (the worker may have graded today's deal meanwhile: not published).
        assert len(rows) == 1 + published
        if language == "hu":  # the longest words: a phone must still hold every card
            page.set_viewport_size(PHONE)
            expect(card).to_be_visible()
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"the page scrolls sideways: {width}px"
            page.screenshot(path=screenshots / "odds-hu-390x844.png", full_page=True)
    finally:
        context.close()


def test_a_new_game_of_a_chosen_difficulty(alice_browser: Player, screenshots: Path) -> None:
    measured(3)  # easy under Classic
    measured(8, **HARD)
    page = alice_browser.page
    page.goto("/")
    dialog = page.get_by_role("dialog", name="New game")
    difficulty = dialog.get_by_label("Difficulty")
    expect(difficulty).to_have_value("")  # any deal, unless asked

    difficulty.select_option("medium")
    dialog.get_by_role("button", name="Deal").click()
    expect(dialog.locator(".field-error")).to_have_text(
        "No medium Classic deal has been proven winnable yet."
    )

    difficulty.select_option("hard")
    page.screenshot(path=screenshots / "new-game-difficulty.png")
    dialog.get_by_role("button", name="Deal").click()
    expect(page.locator("[data-stat=code]")).to_have_text("YU1-C-AAAAAAI")


def test_the_daily_deal_shows_its_grade_once_known(
    alice_browser: Player, screenshots: Path
) -> None:
    page = alice_browser.page
    page.goto("/daily")
    grade = page.locator(".day-grade")
    expect(grade).to_have_attribute("data-grade", "")
    expect(grade).to_have_text("Difficulty: being worked out…")

    # The server's task worker grades the deal; the page asks again until it knows.
    expect(grade).to_have_attribute("data-grade", re.compile("^(easy|medium|hard)$"))
    expect(grade).to_have_text(re.compile(r"^Difficulty: (Easy|Medium|Hard)$"))
    page.screenshot(path=screenshots / "daily-grade.png")
