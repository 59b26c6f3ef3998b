"""What a page tells a careful visitor: its console errors and failed requests, and axe-core's
accessibility violations (axe-core comes from npm: package.json, `make test-tools`)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import ConsoleMessage, Page, Request, Response

from tests.support.servers import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def axe_script() -> str:
    """axe-core's browser build; a test that audits fails (never skips) without it."""
    if not AXE.exists():
        raise RuntimeError(
            f"the accessibility audit needs axe-core at {AXE.relative_to(ROOT)}: run "
            "`make test-tools` (or `npm ci` in the repository), which installs the npm packages "
            "of package.json"
        )
    return AXE.read_text()


def axe_violations(page: Page) -> list[str]:
    """axe-core's violations on the page as it is now, one line each (the rule, its impact, the
    elements it names): every rule it runs by default and its experimental ones (such as
    label-content-name-mismatch: a control's name must hold its visible text)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_script())
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
            const rules = Object.fromEntries(
                axe.getRules(["experimental"]).map(rule => [rule.ruleId, { enabled: true }]));
            const found = await axe.run(document, { resultTypes: ["violations"], rules });
            return found.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => n.target.join(" ")) }));
        }"""
    )
    return [f"{v['id']} ({v['impact']}): {v['help']} at {', '.join(v['nodes'][:5])}" for v in found]


class Problems:
    """Every console error, page error, failed request and 4xx/5xx answer of a page, each
    tagged with the path the page was showing."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.found: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self._add(f"page error: {error}"))
        page.on("requestfailed", self._failed)
        page.on("response", self._answered)

    def _add(self, what: str) -> None:
        path = self.page.url.split("//", 1)[-1].partition("/")[2]
        self.found.append(f"/{path}: {what}")

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self._add(f"console error: {message.text}")

    def _failed(self, request: Request) -> None:
        self._add(f"{request.method} {request.url} failed: {request.failure}")

    def _answered(self, response: Response) -> None:
        if response.status >= 400:
            self._add(f"{response.request.method} {response.url} answered {response.status}")
