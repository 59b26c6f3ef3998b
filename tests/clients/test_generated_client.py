"""A client generated from the published schema plays a whole game against a real server.

openapi-python-client (a dev dependency) generates the package from the live
`/api/schema/`; the test then speaks to the server only through it, plus the
OAuth endpoints of the standard flow (authorize, consent, token, revoke), which
are not part of the REST API, and a websocket library for the feed. Having won,
the player races a second one on the same deal and replays the winning line.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from tests.support.oauth import REDIRECT_URI, Pkce, authorize_url, code_from_redirect, token_form
from tests.support.servers import RunningServer
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

#: A Classic deal (development key) that following the hints wins in about 90 moves.
HINTED_WIN = "YU1-C-AAAAAAB"
TIMEOUT = 30
RACE_SCOPES = "game:read game:play race:play"
GENERATOR_CONFIG = "post_hooks: []\nliteral_enums: true\npackage_name_override: yukon_client\n"


def generate_client(server: RunningServer, where: Path) -> Path:
    generator = Path(sys.executable).with_name("openapi-python-client")
    if not generator.exists():
        raise RuntimeError("this test needs openapi-python-client (a dev dependency): make install")
    config = where / "generator.yaml"
    config.write_text(GENERATOR_CONFIG)
    package = where / "yukon_client"
    subprocess.run(
        [
            *(str(generator), "generate", "--url", f"{server.url}/api/schema/"),
            *("--meta", "none", "--output-path", str(package), "--config", str(config)),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return where


@pytest.fixture
def generated(server: RunningServer, tmp_path: Path) -> Iterator[ModuleType]:
    """The generated package, importable as `yukon_client` for this test only."""
    sys.path.insert(0, str(generate_client(server, tmp_path)))
    try:
        yield importlib.import_module("yukon_client")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.split(".")[0] == "yukon_client"]:
            del sys.modules[name]


def operation(name: str) -> Any:
    return importlib.import_module(f"yukon_client.api.v1.{name}")


def model(name: str) -> Any:
    return getattr(importlib.import_module("yukon_client.models"), name)


def authorize(browser: httpx.Client, client_id: str, scopes: str) -> dict[str, Any]:
    """The OAuth flow itself: consent as the signed-in player, trade the code (PKCE S256)."""
    pkce = Pkce.new()
    page = browser.get(authorize_url(client_id, pkce, scopes))
    assert page.status_code == 200, page.text[:300]
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text))
    allowed = browser.post("/oauth/authorize/", data={**fields, "allow": "Authorize"})
    assert allowed.status_code == 302, allowed.text[:300]
    code = code_from_redirect(allowed.headers["location"])
    tokens = browser.post("/oauth/token/", data=token_form(client_id, code, pkce))
    assert tokens.status_code == 200, tokens.text
    return dict(tokens.json())


def register(generated: ModuleType, server: RunningServer, username: str) -> httpx.Client:
    """A new account through the generated client: its httpx client holds the session opened."""
    anonymous = generated.Client(base_url=server.url, raise_on_unexpected_status=True)
    body = model("RegisterRequest")(username=username, password="a long passphrase 42")
    me = operation("v1_auth_register_create").sync(client=anonymous, body=body)
    assert me.username == username
    browser: httpx.Client = anonymous.get_httpx_client()
    return browser


def next_hint(player: Any, game_id: int, socket: ClientConnection) -> Any:
    """A hint: at once along a solved line, else once the task worker's `hint` push came."""
    hint = operation("v1_games_hint_create").sync(client=player, game_id=game_id)
    if hint.status == "pending":
        assert json.loads(socket.recv(timeout=TIMEOUT))["t"] == "hint"
        hint = operation("v1_games_hint_create").sync(client=player, game_id=game_id)
    return hint


def racer(generated: ModuleType, server: RunningServer, browser: httpx.Client, app: str) -> Any:
    """The signed-in player's client with a token allowed to race."""
    token = authorize(browser, app, RACE_SCOPES)["access_token"]
    return generated.AuthenticatedClient(
        base_url=server.url, token=token, raise_on_unexpected_status=True
    )


def running_race(player: Any, room: str) -> Any:
    """The race once its countdown (RACE_COUNTDOWN_SECONDS, short for this server) is over."""

    def started() -> Any:
        race = operation("v1_races_retrieve").sync(client=player, room=room)
        assert race.status in ("countdown", "running"), race
        return race if race.status == "running" else None

    return wait_until(started, "the countdown to end", timeout=TIMEOUT)


def race_the_winning_line(
    generated: ModuleType,
    server: RunningServer,
    browser: httpx.Client,
    app: str,
    winning_line: list[str],
) -> None:
    """A private room on the won deal: the first player replays its line and wins the race."""
    winner = racer(generated, server, browser, app)
    rival = racer(generated, server, register(generated, server, "rival"), app)
    spec = model("NewRaceRequest")(code=HINTED_WIN, private=True, max_players=2)
    room = operation("v1_races_create").sync(client=winner, body=spec).room
    operation("v1_races_join_create").sync(client=rival, room=room)
    for player in (winner, rival):
        operation("v1_races_ready_create").sync(client=player, room=room)
    race = running_race(winner, room)
    assert race.code is None and race.me.game is not None
    state = operation("v1_games_retrieve").sync(client=winner, game_id=race.me.game)
    assert state.code is None
    refused = operation("v1_games_hint_create").sync_detailed(client=winner, game_id=state.id)
    assert (refused.status_code, refused.parsed.error.code) == (403, "race-no-assists")
    for move in winning_line:
        body = model("MoveRequest")(move=move, version=state.version)
        state = operation("v1_games_moves_create").sync(client=winner, game_id=state.id, body=body)
    assert state.status == "won"
    race = operation("v1_races_retrieve").sync(client=rival, room=room)
    assert (race.status, race.end_reason, race.code) == ("finished", "won", HINTED_WIN)
    places = sorted((seat.place, seat.player, seat.state) for seat in race.racers)
    assert places == [(1, "robot", "won"), (2, "rival", "finished")]


def test_a_generated_client_registers_authorizes_plays_to_a_win_races_and_revokes(
    server: RunningServer, generated: ModuleType
) -> None:
    browser = register(generated, server, "robot")
    session = generated.Client(
        base_url=server.url,
        cookies=dict(browser.cookies),
        headers={"X-CSRFToken": browser.cookies["csrftoken"]},
        raise_on_unexpected_status=True,
    )
    app_spec = model("OAuthAppCreateRequest")(name="generated", redirect_uris=[REDIRECT_URI])
    app = operation("v1_oauth_apps_create").sync(client=session, body=app_spec)
    assert app.client_secret is None

    tokens = authorize(browser, app.client_id, "game:read game:play account:read")
    player = generated.AuthenticatedClient(base_url=server.url, token=tokens["access_token"])
    assert operation("v1_auth_me_retrieve").sync(client=player).username == "robot"
    game = operation("v1_games_create").sync(
        client=player, body=model("NewGameRequest")(code=HINTED_WIN)
    )
    feed = f"{server.ws_url}/ws/v1/games/{game.id}/?token={tokens['access_token']}"
    with connect(feed, origin=Origin(server.url), open_timeout=TIMEOUT) as socket:
        assert json.loads(socket.recv(timeout=TIMEOUT))["d"]["owner"] is True
        assert json.loads(socket.recv(timeout=TIMEOUT))["t"] == "state"
        state = game
        winning_line: list[str] = []
        while state.status != "won":
            hint = next_hint(player, game.id, socket)
            assert hint.status == "winnable" and hint.move, (state.version, hint)
            winning_line.append(hint.move)
            move = model("MoveRequest")(move=hint.move, version=state.version)
            state = operation("v1_games_moves_create").sync(
                client=player, game_id=game.id, body=move
            )
            push = json.loads(socket.recv(timeout=TIMEOUT))
            assert (push["t"], push["v"]) == ("move", state.version), push
            assert state.move_count <= 200, "the hints did not lead to a win"
        assert state.cards_on_foundations == 52
        race = model("NewRaceRequest")(code=HINTED_WIN, private=True)
        unscoped = operation("v1_races_create").sync_detailed(client=player, body=race)
        assert (unscoped.status_code, unscoped.parsed.error.code) == (403, "missing-scope")

        revoked = browser.post(
            "/oauth/revoke_token/",
            data={"token": tokens["access_token"], "client_id": app.client_id},
        )
        assert revoked.status_code == 200
        with pytest.raises(ConnectionClosed) as closed:
            while True:  # pushes sent before the revocation (the win's) come first
                assert json.loads(socket.recv(timeout=TIMEOUT))["t"] != "move"
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    refused = operation("v1_auth_me_retrieve").sync_detailed(client=player)
    assert refused.status_code == 401
    assert refused.parsed.error.code == "authentication-failed"
    race_the_winning_line(generated, server, browser, app.client_id, winning_line)
