"""A player in a browser: their page, their session's API calls, and board queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    Position,
    ViewportSize,
    expect,
)

from tests.support.play import winning_line
from tests.support.servers import RunningServer

#: Where a card is pressed: its rank and suit corner, the strip a column never covers.
CORNER: Position = {"x": 12, "y": 8}
PASSWORD = "correct horse battery staple"
#: Ceiling for every wait on the page (actions, navigations, expect, wait_for_function). Each
#: wait ends as soon as its state holds; this only bounds a failure on a machine whose cores
#: are busy with other work, where a page load or a move's answer can take seconds.
WAIT_MS = 30_000
#: The known winning line's deal (tests/engine/data/winning_line.txt).
WINNING_CODE = winning_line()[0]


def new_context(browser: Browser, server: RunningServer, **options: Any) -> BrowserContext:
    """A browser context on the test server with the suite's generous ceilings."""
    context = browser.new_context(base_url=server.url, **options)
    context.set_default_timeout(WAIT_MS)
    context.set_default_navigation_timeout(WAIT_MS)
    return context


@dataclass
class Player:
    name: str
    context: BrowserContext
    page: Page
    server: RunningServer

    @classmethod
    def sign_up(
        cls,
        browser: Browser,
        server: RunningServer,
        name: str,
        *,
        viewport: dict[str, int] | ViewportSize,
        **options: Any,
    ) -> Player:
        """A new player in a new context; `options` go to the context (say `reduced_motion`)."""
        return cls._enter(browser, server, "register", name, viewport=viewport, **options)

    @classmethod
    def log_in(
        cls,
        browser: Browser,
        server: RunningServer,
        name: str,
        *,
        viewport: dict[str, int] | ViewportSize,
    ) -> Player:
        """A player who signed up earlier, signing in from another (new) browser context."""
        return cls._enter(browser, server, "login", name, viewport=viewport)

    @classmethod
    def _enter(
        cls, browser: Browser, server: RunningServer, how: str, name: str, **options: Any
    ) -> Player:
        context = new_context(browser, server, **options)
        response = context.request.post(
            f"/api/v1/auth/{how}", data={"username": name, "password": PASSWORD}
        )
        assert response.ok, response.text()
        return cls(name, context, context.new_page(), server)

    def close(self) -> None:
        self.context.close()

    # ---- the REST API with this browser's session --------------------------------------

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        csrf = next(c["value"] for c in self.context.cookies() if c["name"] == "csrftoken")
        response = self.context.request.fetch(
            f"/api/v1{path}", method=method, data=body, headers={"X-CSRFToken": csrf}
        )
        assert response.ok, f"{method} {path}: {response.status} {response.text()}"
        return response.json() if response.status != 204 else None

    def new_game(self, code: str) -> dict[str, Any]:
        return dict(self.api("POST", "/games", {"code": code}))

    def state(self, game_id: int) -> dict[str, Any]:
        return dict(self.api("GET", f"/games/{game_id}"))

    def play(self, game_id: int, moves: list[str]) -> dict[str, Any]:
        state = self.state(game_id)
        for move in moves:
            state = self.api(
                "POST", f"/games/{game_id}/moves", {"move": move, "version": state["version"]}
            )
        return state

    # ---- the page --------------------------------------------------------------------------

    def open_game(self, game_id: int) -> None:
        self.page.goto(f"/game/{game_id}")
        self.wait_for_version(self.state(game_id)["version"])

    def wait_for_version(self, version: int) -> None:
        expect(self.page.locator("#app")).to_have_attribute("data-version", str(version))
        self.settle()

    def settle(self) -> None:
        """Wait until the board has drawn its last change and no card is still sliding.

        The board draws a new state in the next animation frame (`data-frame` is set until
        then) and each card then slides to its place in a CSS transition; geometry read before
        both are over is where a card was, not where it is. `getAnimations()` flushes styles,
        so a transition started by the frame just drawn is already listed.
        """
        self.page.wait_for_function(
            """() => !document.querySelector('.board[data-frame]') && !document.getAnimations()
                .some(a => a.effect?.target?.classList?.contains('card'))"""
        )

    def card(self, card: str) -> Locator:
        return self.page.locator(f"#card-{card}")

    def expect_column(self, card: str, col: int) -> None:
        """Wait until the page draws `card` in column `col` (1-7), wherever it slides from."""
        self.page.wait_for_function(
            """([card, col]) => {
                const c = document.getElementById(`card-${card}`)?.getBoundingClientRect();
                const s = document.getElementById(`slot-c${col}`).getBoundingClientRect();
                return c && Math.abs(c.x - s.x) < 2 && c.y >= s.y - 2;
            }""",
            arg=[card, col],
        )

    def expect_foundation(self, card: str, index: int) -> None:
        """Wait until the page draws `card` on foundation `index` (0-3), wherever it slides from."""
        self.page.wait_for_function(
            """([card, index]) => {
                const c = document.getElementById(`card-${card}`)?.getBoundingClientRect();
                const s = document.getElementById(`slot-f${index}`).getBoundingClientRect();
                return c && Math.abs(c.x - s.x) < 2 && Math.abs(c.y - s.y) < 2;
            }""",
            arg=[card, index],
        )

    def tap(self, card: str, *, double: bool = False) -> None:
        """Click a card on its visible strip (the rank and suit corner, never covered).

        Playwright clicks only once the card is stable and the point hits it, never a card
        sliding past.
        """
        self.settle()
        if double:
            self.card(card).dblclick(position=CORNER)
        else:
            self.card(card).click(position=CORNER)

    def drag(self, card: str, target: str) -> None:
        """Drag a card with the mouse onto a slot (`slot-c3`, `slot-f0`) in small steps.

        The press lands where the card is once the board has settled: `hover` waits until the
        card is stable and is the element under the pointer, so the drag never picks up a card
        that happened to be there while this one was still sliding.
        """
        self.settle()
        self.card(card).hover(position=CORNER)
        goal = self.page.locator(f"#{target}").bounding_box()
        assert goal is not None
        mouse = self.page.mouse
        mouse.down()
        mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=8)
        mouse.up()


def started(player: Player, code: str = WINNING_CODE) -> int:
    """A new game of `code` (the winning line's deal unless told), open at the table; its id."""
    game_id = int(player.new_game(code)["id"])
    player.open_game(game_id)
    return game_id
