"""A player in a browser: their page, their session's API calls, and board queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Locator, Page, Position, expect

from tests.support.servers import RunningServer

PASSWORD = "correct horse battery staple"


@dataclass
class Player:
    name: str
    context: BrowserContext
    page: Page
    server: RunningServer

    @classmethod
    def sign_up(
        cls, browser: Browser, server: RunningServer, name: str, *, viewport: dict[str, int]
    ) -> Player:
        context = browser.new_context(base_url=server.url, viewport=viewport)  # type: ignore[arg-type]
        context.set_default_timeout(10_000)
        response = context.request.post(
            "/api/v1/auth/register", data={"username": name, "password": PASSWORD}
        )
        assert response.status == 201, response.text()
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
        """Wait until no card is still sliding to its place (the board's move transitions)."""
        self.page.wait_for_function(
            "!document.getAnimations().some(a => a.effect?.target?.classList?.contains('card'))"
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

    def tap(self, card: str, *, double: bool = False) -> None:
        """Click a card on its visible strip (the rank and suit corner, never covered)."""
        corner: Position = {"x": 12, "y": 8}
        if double:
            self.card(card).dblclick(position=corner)
        else:
            self.card(card).click(position=corner)

    def drag(self, card: str, target: str) -> None:
        """Drag a card with the mouse onto a slot (`slot-c3`, `slot-f0`) in small steps."""
        source = self.card(card).bounding_box()
        goal = self.page.locator(f"#{target}").bounding_box()
        assert source is not None and goal is not None
        mouse = self.page.mouse
        mouse.move(source["x"] + source["width"] / 2, source["y"] + 8)
        mouse.down()
        mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=8)
        mouse.up()
