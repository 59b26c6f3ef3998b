"""Two racers winning at the same moment: the race row's lock orders them by commit, so one
wins and the other's last move is refused (race over), never a shared first place."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from games.models import Game
from games.races.models import Race, Racer
from tests.support.play import post, token_client, winning_line
from tests.support.races import fast_forward, my_game, running_race

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_last_moves_at_once_give_one_winner(alice: User, bob: User) -> None:
    clients = [token_client(alice), token_client(bob)]
    room = running_race(*clients)
    _, line = winning_line()
    games = [my_game(client, room) for client in clients]
    versions = [fast_forward(game, line[:-1]) for game in games]
    start = threading.Barrier(2, timeout=60)
    answers: list[Any] = [None, None]

    def last_move(index: int) -> None:
        start.wait()
        try:
            body = {"move": line[-1], "version": versions[index]}
            answers[index] = post(clients[index], f"/api/v1/games/{games[index]}/moves", body)
        finally:
            connection.close()

    threads = [threading.Thread(target=last_move, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [200, 409], [a.content for a in answers]
    loser = next(a for a in answers if a.status_code == 409)
    assert loser.json()["error"]["code"] == "race-over"
    winner = answers.index(next(a for a in answers if a.status_code == 200))
    race = Race.objects.get(room=room)
    assert race.status == Race.Status.FINISHED and race.finishes == 1
    places = dict(Racer.objects.filter(race=race).values_list("player__username", "place"))
    assert places == {["alice", "bob"][winner]: 1, ["alice", "bob"][1 - winner]: 2}
    assert Game.objects.get(pk=games[winner]).status == Game.Status.WON
    assert Game.objects.get(pk=games[1 - winner]).status == Game.Status.ABANDONED
