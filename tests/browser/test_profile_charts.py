"""A profile's charts (issue 41): a seeded profile (games, dailies over a year, races, puzzles)
shows every chart with its summary and, behind a keyboard-reachable toggle, its table, and a
signed-in visitor's own lines beside; on a 390 by 844 phone nothing runs off the page, in
every language."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, ViewportSize, expect

from games.management.commands.seed_charts import seed_profile
from tests.browser.audit import axe_violations
from tests.browser.helpers import Player, new_context
from tests.support.servers import RunningServer

PHONE: ViewportSize = {"width": 390, "height": 844}
FIGURES = (
    "race-rating",
    "puzzle-rating",
    "dailies",
    "win-rate",
    "win-time",
    "win-moves",
    "turning-points",
)

#: The right edge of the charts and of everything in them (the history table below may scroll).
CHARTS_RIGHT_EDGE = """() => Math.max(...[...document.querySelectorAll('.charts, .charts *')]
    .filter((el) => !el.closest('.chart-table'))
    .map((el) => el.getBoundingClientRect().right))"""

pytestmark = pytest.mark.django_db(transaction=True)


def every_chart_has_its_table(page: Page) -> None:
    for name in FIGURES:
        chart = page.locator(f'figure[data-chart="{name}"]')
        expect(chart.locator(".chart-summary")).not_to_be_empty()
        table = chart.locator(".chart-table table")
        expect(table).to_be_hidden()
        toggle = chart.locator("button.table-toggle")
        toggle.focus()
        page.keyboard.press("Enter")
        expect(toggle).to_have_attribute("aria-expanded", "true")
        expect(table).to_be_visible()
        expect(table.locator("tbody tr").first).to_be_visible()
    expect(page.locator('figure[data-chart="race-rating"] .chart-plot canvas')).to_have_count(1)
    expect(page.locator(".calendar")).to_have_count(2)  # Classic and Relaxed dailies


def test_a_seeded_profile_shows_every_chart_with_its_table(
    alice_browser: Player, browser: Browser, server: RunningServer, screenshots: Path
) -> None:
    seed_profile(User.objects.create_user("carol"), 400)
    seed_profile(User.objects.get(username="alice"), 60, seed=7)
    page = alice_browser.page
    page.goto("/players/carol")
    expect(page.locator(".note", has_text="dashed")).to_be_visible()  # alice compares
    win_rate = page.locator('figure[data-chart="win-rate"] .u-legend')
    expect(win_rate).to_contain_text("Classic (you)")  # her own line beside carol's
    page.locator(".charts").screenshot(path=str(screenshots / "profile-charts-1280.png"))
    race_plot = page.locator('figure[data-chart="race-rating"] .u-over')
    plot_box = race_plot.bounding_box()
    assert plot_box is not None
    race_plot.hover(position={"x": plot_box["width"] - 2, "y": 10})  # the latest race
    expect(page.locator('figure[data-chart="race-rating"] .u-legend')).to_contain_text("place")
    every_chart_has_its_table(page)
    assert axe_violations(page) == []  # the charts with their tables open

    for language in ("en", "hu", "pt", "de"):
        context = new_context(browser, server, viewport=PHONE, is_mobile=True, has_touch=True)
        context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
        phone = context.new_page()
        phone.goto("/players/carol")
        expect(phone.locator('figure[data-chart="turning-points"] canvas')).to_have_count(1)
        phone.locator(".charts").screenshot(
            path=str(screenshots / f"profile-charts-390-{language}.png")
        )
        assert phone.evaluate(CHARTS_RIGHT_EDGE) <= PHONE["width"]
        if language == "en":
            every_chart_has_its_table(phone)
        context.close()
