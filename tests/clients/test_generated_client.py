"""A client generated from the published schema plays a whole game against a real server.

openapi-python-client (a dev dependency) generates the package from the live
`/api/schema/`; the test then speaks to the server only through it, plus the
OAuth endpoints of the standard flow (authorize, consent, token, revoke), which
are not part of the REST API, and a websocket library for the feed. Races are
not in the schema yet: their step comes with them.
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
from websockets.sync.client import connect
from websockets.typing import Origin

from tests.support.oauth import REDIRECT_URI, Pkce, authorize_url, code_from_redirect, token_form
from tests.support.servers import RunningServer

pytestmark = pytest.mark.django_db(transaction=True)

#: A Classic deal (development key) that following the hints wins in about 90 moves.
HINTED_WIN = "YU1-C-AAAAAAB"
TIMEOUT = 30
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


def test_a_generated_client_registers_authorizes_plays_to_a_win_and_revokes(
    server: RunningServer, generated: ModuleType
) -> None:
    anonymous = generated.Client(base_url=server.url, raise_on_unexpected_status=True)
    register = model("RegisterRequest")(username="robot", password="a long passphrase 42")
    me = operation("v1_auth_register_create").sync(client=anonymous, body=register)
    assert me.username == "robot"
    browser = anonymous.get_httpx_client()  # holds the session the registration opened
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
        while state.status != "won":
            hint = operation("v1_games_hint_create").sync(client=player, game_id=game.id)
            assert hint.status == "winnable" and hint.move, (state.version, hint)
            move = model("MoveRequest")(move=hint.move, version=state.version)
            state = operation("v1_games_moves_create").sync(
                client=player, game_id=game.id, body=move
            )
            push = json.loads(socket.recv(timeout=TIMEOUT))
            assert (push["t"], push["v"]) == ("move", state.version), push
            assert state.move_count <= 200, "the hints did not lead to a win"
        assert state.cards_on_foundations == 52

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
