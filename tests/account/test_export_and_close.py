"""Download my data, and leaving: the archive built by the task worker's code, and the
account closed with what others see kept (docs/api.md, "Your account")."""

from __future__ import annotations

import csv
import io
import json
import threading
import zipfile
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_refresh_token_model,
)
from rest_framework.test import APIClient

from accounts import sessions
from accounts.models import ApiToken
from games import days, guest_purge
from games.models import DailyDeal, DataExport, Game
from games.races.models import Racer, RaceRating
from tests.support import oauth
from tests.support.play import new_game, token_client, winning_line
from tests.support.races import my_game, ok, play_line, running_race, win
from tests.support.tasks import run_queued_tasks

PASSWORD = "correct horse battery"


def signed_in(username: str, password: str = PASSWORD) -> APIClient:
    client = APIClient()
    assert client.login(username=username, password=password)
    return client


def test_an_archive_holds_the_account_and_every_game_with_its_move_log(
    alice: User, alice_api: APIClient
) -> None:
    code, line = winning_line()
    game = new_game(alice_api, code=code)
    play_line(alice_api, game["id"], line[:2])
    asked = alice_api.post("/api/v1/me/export")
    assert asked.status_code == 202 and asked.json()["status"] == "queued"
    again = alice_api.post("/api/v1/me/export")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "export-in-progress")
    assert again.json()["error"]["export"] == asked.json()["id"]

    assert run_queued_tasks() == 1
    export = ok(alice_api.get("/api/v1/me/export"))
    assert (export["status"], export["games_done"], export["games_total"]) == ("ready", 1, 1)
    download = alice_api.get(export["download"])
    assert download.status_code == 200 and download["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(download.content))
    assert sorted(archive.namelist()) == [
        "account.json",
        "games.csv",
        "puzzles.json",
        "ratings.json",
        "settings.json",
    ]
    assert json.loads(archive.read("account.json"))["username"] == "alice"
    rows = list(csv.DictReader(io.StringIO(archive.read("games.csv").decode())))
    assert [(row["code"], row["result"], row["move_log"]) for row in rows] == [
        (code, "active", " ".join(line[:2]))
    ]


def test_an_archive_is_its_owners_only_and_expires(
    alice_api: APIClient, bob_api: APIClient
) -> None:
    export_id = alice_api.post("/api/v1/me/export").json()["id"]
    path = f"/api/v1/me/export/{export_id}/download"
    early = alice_api.get(path)
    assert (early.status_code, early.json()["error"]["code"]) == (409, "export-not-ready")
    run_queued_tasks()
    assert alice_api.get(path).status_code == 200
    other = bob_api.get(path)
    assert (other.status_code, other.json()["error"]["code"]) == (404, "export-not-found")
    assert bob_api.get("/api/v1/me/export").status_code == 204, "bob asked for none"
    DataExport.objects.filter(pk=export_id).update(expires_at=timezone.now() - timedelta(1))
    late = alice_api.get(path)
    assert (late.status_code, late.json()["error"]["code"]) == (410, "link-expired")


def test_two_exports_in_the_making_cannot_exist(alice: User) -> None:
    DataExport.objects.create(owner=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        DataExport.objects.create(owner=alice, status=DataExport.Status.RUNNING)


def test_leaving_needs_the_password_then_ends_sessions_tokens_and_games(
    alice: User, bob: User
) -> None:
    token = token_client(alice)
    new_game(token)
    session, other_session = signed_in("alice"), signed_in("alice")
    wrong = session.post("/api/v1/me/delete", {"password": "nope"}, format="json")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (400, "wrong-password")
    with_token = token.post("/api/v1/me/delete", {"password": PASSWORD}, format="json")
    assert with_token.json()["error"]["code"] == "session-required"

    told: list[str] = []

    def note(sender: object, session_keys: list[str], **kwargs: object) -> None:
        told.extend(session_keys)

    sessions.signed_out.connect(note)  # what closes each session's open websockets
    try:
        gone = session.post("/api/v1/me/delete", {"password": PASSWORD}, format="json")
    finally:
        sessions.signed_out.disconnect(note)
    assert gone.status_code == 204
    assert len(told) == 2  # both of alice's sessions
    assert not User.objects.filter(pk=alice.pk).exists()
    assert not Game.objects.filter(owner_id=alice.pk).exists()
    assert not ApiToken.objects.filter(user_id=alice.pk).exists()
    for client in (session, other_session, token):
        assert client.get("/api/v1/auth/me").status_code in (401, 403)
    assert User.objects.filter(pk=bob.pk).exists()


def test_leaving_mid_race_resigns_and_the_race_keeps_a_deleted_player(
    alice: User, bob: User, settings: Any
) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0
    alice_api, bob_api = token_client(alice), token_client(bob)
    room = running_race(alice_api, bob_api)
    alice_game = my_game(alice_api, room)
    app = oauth.register_app(oauth.signed_in(bob))
    grant = oauth.obtain_tokens(oauth.signed_in(alice), app["client_id"], "game:read")
    bearer = APIClient()
    bearer.credentials(HTTP_AUTHORIZATION=f"Bearer {grant['access_token']}")
    assert bearer.get("/api/v1/games").status_code == 200
    session = signed_in("alice")
    assert (
        session.post("/api/v1/me/delete", {"password": PASSWORD}, format="json").status_code == 204
    )

    racer = Racer.objects.select_related("player", "game").get(race__room=room, player_id=alice.pk)
    assert racer.state == Racer.State.RESIGNED
    assert racer.game is not None and racer.game.pk == alice_game
    assert racer.player.username.startswith("deleted-player-") and not racer.player.is_active
    assert bearer.get("/api/v1/games").status_code == 401, "the OAuth grant is revoked"
    assert not get_access_token_model().objects.filter(user_id=alice.pk).exists()
    assert not get_refresh_token_model().objects.filter(user_id=alice.pk).exists()
    assert get_application_model().objects.filter(client_id=app["client_id"]).exists()
    win(bob_api, room, bob)
    race = ok(bob_api.get(f"/api/v1/races/{room}"))
    names = [racer["player"] for racer in race["racers"]]
    assert "bob" in names and any(name.startswith("deleted-player-") for name in names)
    assert not RaceRating.objects.filter(player_id=alice.pk).exists()
    assert not User.objects.get(pk=alice.pk).has_usable_password()


def test_the_guest_purge_takes_the_same_path(alice: User, settings: Any) -> None:
    guest = APIClient()
    assert guest.post("/api/v1/auth/guest").status_code == 201
    guest_id = guest.get("/api/v1/auth/me").json()["id"]
    new_game(guest)
    User.objects.filter(pk=guest_id).update(
        date_joined=timezone.now() - timedelta(days=60), last_login=None
    )
    Game.objects.filter(owner_id=guest_id).update(created_at=timezone.now() - timedelta(days=60))
    assert guest_purge.purge() == 1
    assert not User.objects.filter(pk=guest_id).exists()
    assert guest.get("/api/v1/auth/me").status_code in (401, 403)


def test_leaving_with_a_ranked_daily_attempt_in_play_ends_it_and_leaves_the_day(
    alice: User, bob: User, settings: Any
) -> None:
    settings.DAILY_SOLVER_NODES = 20_000  # an unproven candidate stays cheap
    attempt = token_client(alice).post("/api/v1/daily/play").json()
    assert attempt["status"] == "active" and attempt["ranked"]
    bob_api = token_client(bob)
    assert bob_api.get("/api/v1/daily").json()["players"] == 1
    gone = signed_in("alice").post("/api/v1/me/delete", {"password": PASSWORD}, format="json")
    assert gone.status_code == 204
    assert bob_api.get("/api/v1/daily").json()["players"] == 0


@pytest.mark.django_db(transaction=True)
def test_two_asks_at_once_make_one_export_and_one_clear_refusal(alice: User) -> None:
    clients = [token_client(alice) for _ in range(2)]
    start = threading.Barrier(len(clients), timeout=60)
    answers: list[tuple[int, str]] = []
    lock = threading.Lock()

    def ask(client: APIClient) -> None:
        start.wait()
        try:
            answer = client.post("/api/v1/me/export")
            code = answer.json().get("error", {}).get("code", "")
            with lock:
                answers.append((answer.status_code, code))
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [(202, ""), (409, "export-in-progress")]
    assert DataExport.objects.filter(owner=alice).count() == 1


def test_a_guest_leaves_without_a_password(db: None) -> None:
    guest = APIClient()
    guest_id = guest.post("/api/v1/auth/guest").json()["id"]
    new_game(guest)
    assert guest.post("/api/v1/me/delete", {}, format="json").status_code == 204
    assert not User.objects.filter(pk=guest_id).exists()


def test_an_archive_keeps_a_running_dailys_code_and_log_secret(
    alice: User, alice_api: APIClient
) -> None:
    """The archive is a door like any other (docs/fair-play.md): a game whose deal is still
    secret (today's daily, a running race) is listed without its code and its moves."""
    DailyDeal.objects.create(date=days.today(), number=123_456, candidate=0, verdict="winnable")
    attempt = ok(alice_api.post("/api/v1/daily/play"), 201)
    play_line(alice_api, attempt["id"], attempt["legal_moves"][:1])
    alice_api.post("/api/v1/me/export")
    assert run_queued_tasks() == 1
    download = alice_api.get(ok(alice_api.get("/api/v1/me/export"))["download"])
    archive = zipfile.ZipFile(io.BytesIO(download.content))
    rows = list(csv.DictReader(io.StringIO(archive.read("games.csv").decode())))
    assert [(row["id"], row["code"], row["move_log"]) for row in rows] == [
        (str(attempt["id"]), "", "")
    ]
