"""Loose ends of the ranking and table pages (issue 15), each seen in Chromium first.

The chosen language rules every word, plural and number; the daily page's counts agree with
its boards; a running daily offers its link, not a hidden code; /rules without an anchor and
/daily/<not a date> behave; a ranked game of a closed day shows as closed; games played with
hints are treated alike on every board, and each page says how.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from games import days
from games.engine import GameCode
from games.models import DailyDeal, Game
from tests.browser.conftest import DESKTOP
from tests.browser.helpers import Player, new_context
from tests.support.play import winning_line
from tests.support.servers import RunningServer

CODE, LINE = winning_line()
#: A closed day with a fixed weekday and month names to read (a Tuesday).
PAST_DAY = date(2026, 11, 3)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def small_solver_budget(settings: object) -> None:
    """Today's deal is chosen here (the server then reads it): keep a failed proof cheap."""
    settings.DAILY_SOLVER_NODES = 20_000  # type: ignore[attr-defined]


def file_under(day: date, *game_ids: int) -> None:
    """File games as the ranked attempts of `day` (its deal row made if missing)."""
    DailyDeal.objects.get_or_create(
        date=day,
        defaults={"number": GameCode.parse(CODE).number, "candidate": 0, "verdict": "winnable"},
    )
    Game.objects.filter(pk__in=game_ids).update(daily_date=day, ranked=True)


def win(player: Player, *, assisted: bool = False) -> int:
    """Win CODE through the API; `assisted` marks the game as one that asked for help first."""
    game_id = int(player.new_game(CODE)["id"])
    if assisted:
        Game.objects.filter(pk=game_id).update(assisted=True)
    assert player.play(game_id, LINE)["status"] == "won"
    return game_id


#: How many lines an element's text takes.
LINES = """e => { const r = document.createRange(); r.selectNodeContents(e);
    return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }"""


def page_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def test_pages_speak_the_chosen_language_with_its_plurals_numbers_and_dates(
    browser: Browser, server: RunningServer, transactional_db: None, screenshots: Path
) -> None:
    # The browser says English; the player chose German (stored with the account, no cookie).
    player = Player.sign_up(browser, server, "anke", viewport=DESKTOP)
    try:
        player.api("PATCH", "/me/settings", {"language": "de"})
        file_under(PAST_DAY, win(player))
        page = player.page
        errors = page_errors(page)

        page.goto("/leaderboards")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.locator(".board-body h2")).to_have_text("Meiste Siege")
        expect(page.locator("tr[data-player=anke] td.measure")).to_have_text("1")
        expect(page.locator("tr[data-player=anke]")).to_contain_text("100,0\u00a0%")
        page.screenshot(path=str(screenshots / "loose-ends-leaderboard-de.png"), full_page=True)

        page.goto("/players/anke")
        expect(page.locator(".stats-card[data-rule=C] [data-stat=win_rate]")).to_have_text(
            "100,0\u00a0%"
        )
        history = page.locator(".game-history")
        expect(history).to_contain_text("Tagesspiel 3. November 2026 (gewertet)")

        page.goto(f"/daily/{PAST_DAY}")
        expect(page.locator(".day-date")).to_have_text("Dienstag, 3. November 2026 (UTC)")
        expect(page.locator(".day-picker")).to_have_text("03.11.2026")  # not 11/03/2026
        # Its name starts with what it shows (a voice command "click 03.11.2026" reaches it).
        expect(page.locator(".day-picker")).to_have_accessible_name("03.11.2026: Tag wählen")
        expect(page.locator(".my-rank")).to_contain_text("Ihr Rang: 1 von 1.")
        expect(page.locator(".my-rank")).to_contain_text(f"Gewonnen in {len(LINE)} Zügen")
        page.screenshot(path=str(screenshots / "loose-ends-daily-past-de.png"), full_page=True)
        page.locator(".day-choice input").fill(str(PAST_DAY - timedelta(days=1)))
        expect(page).to_have_url(re.compile(rf"/daily/{PAST_DAY - timedelta(days=1)}$"))
        expect(page.locator(".day-picker")).to_have_text("02.11.2026")

        player.api("POST", "/daily/play")
        page.goto("/daily")
        expect(page.locator(".players")).to_contain_text("Bisher 1 gewerteter Spieler.")
        assert errors == []
    finally:
        player.close()


def test_the_daily_counts_agree_with_each_board_and_its_empty_state(
    alice_browser: Player, screenshots: Path
) -> None:
    game_id = int(alice_browser.api("POST", "/daily/play")["id"])
    Game.objects.filter(pk=game_id).update(assisted=True)
    page = alice_browser.page
    page.goto("/daily")
    expect(page.locator(".players")).to_contain_text("1 ranked player so far")
    without, with_hints = (
        page.locator(".toggle button[data-value=ranked]"),
        page.locator(".toggle button[data-value=assisted]"),
    )
    expect(without).to_have_text("Without hints (0)")
    expect(with_hints).to_have_text("With hints (1)")
    empty = page.locator(".day-ranking .empty")
    expect(empty).to_have_text(
        "Nobody has played this deal without hints yet; 1 player used hints (see “With hints”)."
    )
    expect(page.get_by_text("Nobody has played this deal yet")).to_have_count(0)
    page.screenshot(path=str(screenshots / "loose-ends-daily-counts.png"), full_page=True)
    with_hints.click()
    expect(page.locator("tr[data-player=alice]")).to_contain_text("Playing")
    expect(page.locator(".day-ranking .empty")).to_have_count(0)


def test_copy_on_a_running_daily_copies_its_link_and_a_closed_day_its_code(
    alice_browser: Player, screenshots: Path
) -> None:
    alice_browser.context.grant_permissions(["clipboard-read", "clipboard-write"])
    game_id = int(alice_browser.api("POST", "/daily/play")["id"])
    page = alice_browser.page
    alice_browser.open_game(game_id)
    expect(page.locator("[data-stat=code]")).to_have_text("hidden until the day closes")
    copy = page.locator(".code-stat button")
    expect(copy).to_have_text("Copy link")
    copy.click()
    link = f"{alice_browser.server.url}/daily/{days.today()}"
    expect(page.locator("#messages")).to_contain_text("Copied the link to this daily deal.")
    assert page.evaluate("navigator.clipboard.readText()") == link
    assert "null" not in page.locator("#messages").inner_text()
    page.screenshot(path=str(screenshots / "loose-ends-daily-copy-link.png"))

    closed = int(alice_browser.new_game(CODE)["id"])
    file_under(PAST_DAY, closed)
    alice_browser.open_game(closed)
    expect(page.locator("[data-stat=code]")).to_have_text(CODE)
    expect(copy).to_have_text("Copy")
    copy.click()
    expect(page.locator("#messages")).to_contain_text(f"Copied {CODE}.")
    assert page.evaluate("navigator.clipboard.readText()") == CODE


def test_rules_without_an_anchor_loads_without_a_page_error(
    browser: Browser, server: RunningServer, screenshots: Path
) -> None:
    context = new_context(browser, server, viewport=DESKTOP)
    try:
        page = context.new_page()
        errors = page_errors(page)
        page.goto("/rules")
        expect(page.locator("article.rules h1")).to_be_visible()
        page.goto("/")
        page.get_by_role("link", name="How to play Yukon").click()
        expect(page.locator("article.rules h1")).to_be_visible()
        page.screenshot(path=str(screenshots / "loose-ends-rules.png"))
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize(
    ("day", "message"),
    [
        ("garbage", "“garbage” is not a date: days are written like 2026-12-01."),
        ("2026-02-30", "“2026-02-30” is not a date: days are written like 2026-12-01."),
        ("future", "That day has not come yet: the daily deal of a day is chosen when it starts."),
    ],
)
def test_a_day_that_is_not_a_date_is_told_apart_from_a_day_to_come(
    browser: Browser,
    server: RunningServer,
    transactional_db: None,
    screenshots: Path,
    day: str,
    message: str,
) -> None:
    address = str(days.today() + timedelta(days=3)) if day == "future" else day
    context = new_context(browser, server, viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"/daily/{address}")
        expect(page.locator(".day-status .empty")).to_have_text(message)
        today = page.get_by_role("link", name="Today", exact=True)
        expect(today).to_have_attribute("href", "/daily")
        if day != "future":
            expect(page.locator(".day-date")).to_have_text(day)  # no date made of it
        if day == "2026-02-30":
            page.screenshot(path=str(screenshots / "loose-ends-daily-invalid.png"))
    finally:
        context.close()


def test_a_ranked_game_of_a_closed_day_shows_as_closed_and_takes_no_move(
    alice_browser: Player, screenshots: Path
) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    alice_browser.play(game_id, LINE[:3])
    yesterday = days.today() - timedelta(days=1)
    file_under(yesterday, game_id)
    # 59 minutes at the table, the clock running a minute before the day closed: it stopped
    # at the close, an hour in all (games.clock).
    closed_at = datetime.combine(days.today(), time(0), tzinfo=UTC)
    Game.objects.filter(pk=game_id).update(
        time_played=timedelta(minutes=59), clock_at=closed_at - timedelta(minutes=1)
    )

    state = alice_browser.state(game_id)
    assert state["closed"] is True
    assert state["legal_moves"] == []
    assert state["undo_depth"] == 0
    assert state["elapsed_seconds"] == 3600

    page = alice_browser.page
    moves: list[str] = []
    page.on(
        "request",
        lambda request: (
            moves.append(request.url)
            if "/games/" in request.url and request.method == "POST"
            else None
        ),
    )
    alice_browser.open_game(game_id)
    expect(page.locator("[data-stat=time]")).to_have_text("1:00:00")
    expect(page.locator("[data-stat=status]")).to_contain_text("Day closed")
    expect(page.locator("#messages")).to_contain_text(
        "This daily deal is closed: its ranking is final."
    )
    expect(page.get_by_role("button", name="Undo")).to_be_disabled()
    expect(page.locator("[data-action=resign]")).to_be_disabled()

    card = next(c for c in ("QS", "KH") if alice_browser.card(c).count())
    before = alice_browser.card(card).bounding_box()
    alice_browser.card(card).hover(position={"x": 12, "y": 8})
    page.mouse.down()
    page.mouse.move(600, 600, steps=8)
    assert alice_browser.card(card).bounding_box() == before  # nothing follows the pointer
    page.mouse.up()
    alice_browser.tap(card)
    alice_browser.page.locator(".board").press("t")
    assert moves == []
    page.locator("#messages button").first.click()  # dismissed: the info bar shows the state
    expect(page.locator("[data-stat=status]")).to_be_visible()
    page.screenshot(path=str(screenshots / "loose-ends-closed-day-game.png"))
    expect(page.locator("[data-stat=time]")).to_have_text("1:00:00")


def test_a_table_open_when_its_day_closes_freezes_at_the_next_move(alice_browser: Player) -> None:
    """The day closing while the page is open (no push says so): the refused move brings the
    frozen state, and the table stops its clock and takes no more moves."""
    game_id = int(alice_browser.new_game(CODE)["id"])
    Game.objects.filter(pk=game_id).update(daily_date=days.today(), ranked=True)
    alice_browser.open_game(game_id)
    page = alice_browser.page
    expect(page.locator(".code-stat button")).to_have_text("Copy link")
    file_under(days.today() - timedelta(days=1), game_id)  # its day has just closed
    alice_browser.tap("AS")  # LINE[0] is AS>F: a legal move while the day ran
    expect(page.locator("#messages")).to_contain_text("This daily deal is closed")
    expect(page.locator("[data-stat=status]")).to_contain_text("Day closed")
    expect(page.locator("[data-action=resign]")).to_be_disabled()
    expect(page.locator("#app")).to_have_attribute("data-version", "0")


def test_games_with_hints_count_for_wins_but_not_records_and_every_page_says_so(
    alice_browser: Player, screenshots: Path
) -> None:
    file_under(PAST_DAY, win(alice_browser, assisted=True))
    page = alice_browser.page
    note = re.compile("Games played with hints or winnability checks")

    page.goto("/players/alice")
    card = page.locator(".stats-card[data-rule=C]")
    expect(card.locator("[data-stat=wins]")).to_have_text("1")
    best_time = card.locator("[data-stat=best_time]")
    expect(best_time).to_have_text("\u2013")
    # The dash is explained once under the card, on one line, not beside it over three.
    expect(best_time).to_have_accessible_description("\u2013 (only wins with help)")
    expect(card.locator("[data-stat=fewest_moves]")).to_have_text("\u2013")
    explained = card.locator(".card-note")
    expect(explained).to_have_text("\u2013 (only wins with help)")
    for text in (explained, *card.locator("dd").all()):
        assert text.evaluate(LINES) == 1, f"{text.inner_text()} wraps"
    # A rule never played: no best score of 0 beside the dashes.
    expect(page.locator(".stats-card[data-rule=R] [data-stat=best_score]")).to_have_text("\u2013")
    expect(page.locator(".stats-card[data-rule=R] .card-note")).to_have_count(0)
    expect(page.locator(".assisted-note")).to_have_text(note)
    page.screenshot(path=str(screenshots / "loose-ends-profile-assisted.png"), full_page=True)

    page.goto("/leaderboards")
    expect(page.locator("tr[data-player=alice]")).to_be_visible()
    # On Most wins itself, no "as on Most wins": the note says where hint games do not count.
    expect(page.locator(".assisted-note")).to_have_text(
        "Games played with hints or winnability checks count on this board like any other "
        "game; only the record boards (fastest, fewest moves, daily streak) leave them out."
    )
    page.get_by_role("button", name="Fastest").click()
    expect(page.locator(".board-body .empty")).to_be_visible()
    expect(page.locator(".assisted-note")).to_contain_text("do not count on this board")
    page.screenshot(path=str(screenshots / "loose-ends-fastest-assisted.png"), full_page=True)

    page.goto(f"/daily/{PAST_DAY}")
    expect(page.locator(".assisted-note")).to_have_text(note)
    expect(page.locator(".toggle button[data-value=assisted]")).to_have_text("With hints (1)")
