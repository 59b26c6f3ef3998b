"""The "your first client" examples of docs/api.md run as printed, against a real server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from accounts.models import ApiToken
from games.models import Game
from tests.support.servers import ROOT, RunningServer, require_tool

pytestmark = pytest.mark.django_db(transaction=True)

MOVES = 10


def example(language: str) -> str:
    """The code block in `language` of the "Your first client" section."""
    text = (ROOT / "docs" / "api.md").read_text()
    section = text.split(". Your first client\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(rf"```{language}\n(.*?)```", section, re.S)
    assert found, f"docs/api.md's first-client section has no {language} block"
    return found.group(1)


def run_example(command: list[str], server: RunningServer, alice: User) -> str:
    raw = ApiToken.issue(alice, "first client", ["game:read", "game:play"])[1]
    env = {**os.environ, "YUKON_URL": server.url, "YUKON_TOKEN": raw}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def check_played(output: str) -> None:
    lines = output.splitlines()
    assert lines[0] == "feed: hello state"
    played = [line.split() for line in lines[1:]]
    assert [int(words[3]) for words in played] == list(range(1, MOVES + 1))
    game = Game.objects.get()
    assert (game.move_count, game.version, game.assisted) == (MOVES, MOVES, True)
    assert int(played[-1][5]) == game.score


@pytest.mark.parametrize("language", ["python", "js"])
def test_the_first_client_plays_ten_hinted_moves(
    language: str, server: RunningServer, alice: User, tmp_path: Path
) -> None:
    if language == "python":
        script = tmp_path / "first_client.py"
        command = [sys.executable, str(script)]
    else:
        node = require_tool("node", "apt-get install nodejs (Node 20 or later)")
        script = tmp_path / "first_client.mjs"
        command = [node, "--experimental-websocket", str(script)]
    script.write_text(example(language))
    check_played(run_example(command, server, alice))
