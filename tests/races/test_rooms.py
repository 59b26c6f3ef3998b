"""Race rooms through the REST API: the whole life of a race, and every refusal it owes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.guests import create_guest
from games.models import Game
from games.races import lifecycle, rooms
from games.races.models import QueueEntry, Race, Racer, RaceRating
from tests.support.play import post, token_client, winning_line
from tests.support.races import my_game, ok, open_room, play_line, refused, running_race, win


@pytest.mark.django_db
def test_a_race_from_room_to_ranking(
    alice: User, alice_api: APIClient, bob_api: APIClient, carol: User
) -> None:
    carol_api = token_client(carol)
    guest_api = token_client(create_guest())
    room = running_race(alice_api, bob_api, carol_api, guest_api, server_dealt=True)
    state = ok(bob_api.get(f"/api/v1/races/{room}"))
    assert state["status"] == "running" and state["code"] is None
    assert [racer["seat"] for racer in state["racers"]] == [1, 2, 3, 4]
    games = {my_game(client, room) for client in (alice_api, bob_api, carol_api, guest_api)}
    assert len(games) == 4
    assert len(set(Game.objects.filter(pk__in=games).values_list("code", flat=True))) == 1
    bob_game = my_game(bob_api, room)
    assert ok(bob_api.get(f"/api/v1/games/{bob_game}"))["code"] is None
    play_line(bob_api, bob_game, winning_line()[1][:6])
    carol_game = my_game(carol_api, room)
    play_line(carol_api, carol_game, winning_line()[1][:6])
    racers = {r["player"]: r for r in ok(alice_api.get(f"/api/v1/races/{room}"))["racers"]}
    assert racers["bob"]["moves"] == 6 and racers["carol"]["moves"] == 6
    assert racers["alice"]["moves"] == 0

    win(alice_api, room, alice)

    final = ok(bob_api.get(f"/api/v1/races/{room}"))
    assert final["status"] == "finished" and final["end_reason"] == "won"
    assert final["code"] == winning_line()[0]
    places = {r["player"]: (r["place"], r["state"]) for r in final["racers"]}
    assert places["alice"] == (1, "won")
    # Bob and Carol made the same progress: a tie, whoever got there first.
    assert places["bob"][0] == places["carol"][0] == 2
    assert places[next(r["player"] for r in final["racers"] if r["guest"])][0] == 4
    assert all(r["game"] is not None for r in final["racers"])
    assert Game.objects.get(pk=bob_game).status == Game.Status.ABANDONED
    assert ok(bob_api.get(f"/api/v1/games/{bob_game}"))["code"] == winning_line()[0]
    rated = {r.player.username: r for r in RaceRating.objects.select_related("player")}
    assert set(rated) == {"alice", "bob", "carol"}  # the guest races unrated
    assert rated["alice"].rating > rated["bob"].rating == rated["carol"].rating
    guest = next(r for r in final["racers"] if r["guest"])
    assert guest["rating_after"] is None and final["racers"][0]["rating_after"] is not None
    board = ok(APIClient().get("/api/v1/races/leaderboard?rule=C"))
    assert board[0]["player"] == "alice" and len(board) == 3
    profile = ok(APIClient().get("/api/v1/players/alice/races"))
    assert profile["ratings"]["C"]["wins"] == 1
    assert profile["history"][0]["place"] == 1 and profile["history"][0]["racers"] == 4


@pytest.mark.django_db
def test_rematch_in_one_click_seats_the_players_who_accept(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    room = running_race(alice_api, bob_api)
    win(alice_api, room, alice)
    again = ok(post(bob_api, f"/api/v1/races/{room}/rematch", {}))
    assert again["room"] != room and again["status"] == "open"
    assert ok(bob_api.get(f"/api/v1/races/{room}"))["rematch"] == again["room"]
    started = ok(post(alice_api, f"/api/v1/races/{room}/rematch", {}))
    assert started["room"] == again["room"] and started["status"] == "running"
    assert started["code"] is None
    assert Race.objects.get(room=again["room"]).racers.count() == 2


@pytest.mark.django_db
def test_a_rematch_waits_only_for_the_racers_still_at_the_end(
    alice: User, alice_api: APIClient, bob_api: APIClient, carol: User
) -> None:
    carol_api = token_client(carol)
    room = running_race(alice_api, bob_api, carol_api)
    win(alice_api, room, alice)
    race = Race.objects.get(room=room)
    Racer.objects.filter(race=race).update(connected=True, seen_at=timezone.now())  # all there

    again = ok(post(bob_api, f"/api/v1/races/{room}/rematch", {}))
    assert again["status"] == "open" and again["waiting_for"] == ["alice", "carol"]
    rooms.touch(carol.pk, race.pk, connected=False)  # Carol closes the page
    assert ok(bob_api.get(f"/api/v1/races/{again['room']}"))["waiting_for"] == ["alice"]
    started = ok(post(alice_api, f"/api/v1/races/{room}/rematch", {}))
    assert started["room"] == again["room"] and started["status"] == "running"
    assert sorted(r["player"] for r in started["racers"]) == ["alice", "bob"]


@pytest.mark.django_db
def test_a_rematch_stops_waiting_after_its_time(
    alice: User, alice_api: APIClient, bob_api: APIClient, carol: User
) -> None:
    carol_api = token_client(carol)
    room = running_race(alice_api, bob_api, carol_api)
    win(alice_api, room, alice)
    Racer.objects.filter(race__room=room).update(connected=True, seen_at=timezone.now())
    again = ok(post(bob_api, f"/api/v1/races/{room}/rematch", {}))
    joined = ok(post(alice_api, f"/api/v1/races/{room}/rematch", {}))
    assert joined["status"] == "open" and joined["waiting_for"] == ["carol"]
    Race.objects.filter(room=again["room"]).update(
        created_at=timezone.now() - lifecycle.REMATCH_WAIT - timedelta(seconds=1)
    )
    state = ok(bob_api.get(f"/api/v1/races/{again['room']}"))
    assert state["status"] == "running" and state["waiting_for"] == []


@pytest.mark.django_db
def test_refusals_leave_the_race_consistent(
    alice_api: APIClient, bob_api: APIClient, carol: User, settings: Any
) -> None:
    carol_api = token_client(carol)
    room = open_room(alice_api)
    refused(post(alice_api, "/api/v1/races", {}), 409, "already-racing")
    ok(post(bob_api, f"/api/v1/races/{room}/join", {}))
    ok(post(bob_api, f"/api/v1/races/{room}/join", {}))  # joining twice is joining once
    ok(post(bob_api, f"/api/v1/races/{room}/ready", {}))
    refused(post(bob_api, f"/api/v1/races/{room}/ready", {}), 409, "already-ready")
    refused(post(carol_api, f"/api/v1/races/{room}/ready", {}), 403, "not-a-racer")
    refused(post(bob_api, f"/api/v1/races/{room}/start", {}), 403, "not-race-creator")
    settings.RACE_COUNTDOWN_SECONDS = 600
    ok(post(alice_api, f"/api/v1/races/{room}/ready", {}))
    assert ok(alice_api.get(f"/api/v1/races/{room}"))["status"] == "countdown"
    assert ok(alice_api.get(f"/api/v1/races/{room}"))["me"]["game"] is None
    refused(post(bob_api, f"/api/v1/races/{room}/leave", {}), 409, "race-counting-down")
    refused(post(carol_api, f"/api/v1/races/{room}/join", {}), 409, "race-started")
    refused(post(bob_api, "/api/v1/races/queue", {"rule": "C"}), 409, "already-racing")
    Race.objects.filter(room=room).update(starts_at=timezone.now() - timedelta(seconds=1))
    game = my_game(alice_api, room)  # the read settles the countdown's end
    refused(post(alice_api, f"/api/v1/games/{game}/hint", {}), 403, "race-no-assists")
    refused(post(alice_api, f"/api/v1/games/{game}/winnability", {}), 403, "race-no-assists")
    refused(bob_api.get(f"/api/v1/games/{game}"), 403, "race-in-progress")
    refused(APIClient().get(f"/api/v1/games/{game}/log"), 403, "race-in-progress")
    refused(post(bob_api, f"/api/v1/races/{room}/leave", {}), 409, "race-running")
    refused(post(bob_api, f"/api/v1/races/{room}/rematch", {}), 409, "race-not-over")
    Race.objects.filter(room=room).update(ends_at=timezone.now() - timedelta(seconds=1))
    first = winning_line()[1][0]
    body = {"move": first, "version": 0}
    refused(post(alice_api, f"/api/v1/games/{game}/moves", body), 409, "race-over")
    race = Race.objects.get(room=room)
    assert race.status == Race.Status.FINISHED and race.end_reason == "time-limit"
    assert not Racer.objects.filter(race=race, active=True).exists()
    assert Game.objects.get(pk=game).move_count == 0
    # Free again: a new room is allowed.
    ok(post(bob_api, "/api/v1/races", {}), 201)


@pytest.mark.django_db
def test_a_racer_away_past_the_grace_forfeits(alice_api: APIClient, bob_api: APIClient) -> None:
    room = running_race(alice_api, bob_api)
    Racer.objects.filter(player__username="bob").update(
        seen_at=timezone.now() - timedelta(seconds=61)
    )
    state = ok(alice_api.get(f"/api/v1/races/{room}"))
    assert (state["status"] == "finished" and state["end_reason"] == "all-done") or {
        r["player"]: r["state"] for r in state["racers"]
    }["bob"] == "forfeited"
    bob = next(r for r in state["racers"] if r["player"] == "bob")
    assert bob["state"] == "forfeited"


@pytest.mark.django_db
def test_quick_match_pairs_two_waiting_players(alice_api: APIClient, bob_api: APIClient) -> None:
    waiting = ok(post(alice_api, "/api/v1/races/queue", {"rule": "R"}))
    assert waiting["waiting"] and waiting["race"] is None
    ok(post(bob_api, "/api/v1/races/queue", {"rule": "R"}))
    refused(post(bob_api, "/api/v1/races/queue", {"rule": "R"}), 409, "already-racing")
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=10))
    matched = ok(alice_api.get("/api/v1/races/queue"))
    assert not matched["waiting"] and matched["race"] is not None
    assert ok(bob_api.get("/api/v1/races/queue"))["race"] == matched["race"]
    race = ok(alice_api.get(f"/api/v1/races/{matched['race']}"))
    assert race["status"] == "running" and race["rule"] == "R" and len(race["racers"]) == 2
    assert bob_api.delete("/api/v1/races/queue").status_code == 204
