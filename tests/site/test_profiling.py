"""The benchmarks' profile summary: py-spy's collapsed stacks shared out by area."""

from __future__ import annotations

from pathlib import Path

from benchmarks import profiling


def test_self_time_is_shared_by_the_leaf_frames_area(tmp_path: Path) -> None:
    (tmp_path / "ws-1.txt").write_text(
        "<module> (uvicorn/main.py:1);Runner.run (asyncio/runners.py:118) 50\n"
        "<module> (uvicorn/main.py:1);Connection.wait (psycopg/connection.py:495) 30\n"
        "handle (api/realtime/outbox.py:40);send (uvicorn/protocols/ws.py:9) 20\n"
        "a line py-spy would never write\n",
        encoding="utf-8",
    )
    (tmp_path / "ws-2.txt").write_text("play (games/engine/game.py:300) 100\n", encoding="utf-8")
    profile = profiling.summary(
        [tmp_path / "ws-1.txt", tmp_path / "ws-2.txt", tmp_path / "ws-3.txt"], seconds=4.0
    )
    assert profile.python_seconds == 200 / profiling.RATE
    assert dict(profile.areas) == {
        "game engine": 50.0,
        "event loop (asyncio, selectors)": 25.0,
        "database driver (psycopg)": 15.0,
        "HTTP/websocket server (uvicorn, websockets)": 10.0,
    }
    assert profile.functions[0] == ("play (games/engine/game.py:300)", 50.0)


def test_our_code_is_told_apart_from_the_libraries() -> None:
    assert profiling.area_of("f (api/realtime/fanout.py:1)") == "our websocket code (api/realtime)"
    assert profiling.area_of("f (api/views/games.py:1)") == "our API views and serializers"
    assert profiling.area_of("f (channels_redis/core.py:1)").startswith("channel layer")
    assert profiling.area_of("f (somewhere/else.py:1)") == "other"
