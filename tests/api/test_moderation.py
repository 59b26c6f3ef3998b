"""Moderation: staff mark and unmark accounts in the admin (audited); a marked account leaves
every public board and rating and its pages are hidden from others; the fair-play list
shows accounts sharing a browser or an address that met on a daily or in a race, and many
games of one deal."""

from __future__ import annotations

from datetime import date, timedelta
from io import StringIO
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import moderation
from accounts.models import Mark, ModerationEntry, PlaySource
from accounts.play_sources import COOKIE
from games import deals, fair_play_signals, leaderboards
from games.engine import GameCode, private_form
from games.models import Game, PlayerStats
from games.races.models import RaceRating
from tests.support.play import new_game, post, token_client, winning_line
from tests.support.races import ok

pytestmark = pytest.mark.django_db

DAY = date(2026, 11, 30)
ADMIN_PAGES = (
    "/admin/accounts/moderationentry/",
    "/admin/accounts/moderationentry/add/",
    "/admin/accounts/mark/",
    "/admin/accounts/playsource/",
)


@pytest.fixture
def staff(db: None) -> APIClient:
    client = APIClient()
    client.force_login(User.objects.create_superuser("warden", password="x"))
    return client


def player(name: str) -> User:
    return User.objects.create_user(name, password=f"{name} battery staple")


def daily_game(owner: User, day: date = DAY, **fields: Any) -> Game:
    """A ranked daily game row (the rankings read only these fields)."""
    code = winning_line()[0]
    return Game.objects.create(
        owner=owner,
        code=code,
        state=private_form(deals.new_game(GameCode.parse(code))),
        daily_date=day,
        ranked=True,
        **fields,
    )


def names(rows: Any, field: str = "player") -> list[str]:
    return [row[field] for row in rows]


def boards(viewer: APIClient) -> dict[str, list[Any]]:
    """Who each public board and ranking lists."""
    return {
        **{
            board: names(ok(viewer.get(f"/api/v1/leaderboards/{board}"))["results"])
            for board in leaderboards.BOARDS
        },
        "race ratings": names(ok(viewer.get("/api/v1/races/leaderboard"))),
        "daily": [game.owner.username for game in leaderboards.daily_rows(DAY)],
        "daily sections": [leaderboards.daily_sections(DAY)["without_hints"]],
    }


def test_marking_takes_a_player_off_every_board_and_rating_and_unmarking_restores_them(
    alice: User, bob: User, staff: APIClient
) -> None:
    for rank, who in enumerate((alice, bob)):
        PlayerStats.objects.create(
            player=who,
            rule="C",
            games=leaderboards.WIN_RATE_MIN_GAMES,
            wins=9 - rank,
            best_time=timedelta(minutes=5 + rank),
            fewest_moves=90 + rank,
            best_daily_streak=3 - rank,
        )
        RaceRating.objects.create(player=who, rule="C", mu=30 - rank, sigma=2, rating=24 - rank)
        daily_game(who, status="won", move_count=90 + rank, cards_on_foundations=52)
    viewer = APIClient()
    before = boards(viewer)
    assert before == {
        **{board: ["alice", "bob"] for board in leaderboards.BOARDS},
        "race ratings": ["alice", "bob"],
        "daily": ["alice", "bob"],
        "daily sections": [2],
    }
    warden = User.objects.get(username="warden")
    moderation.mark(alice, by=warden, reason="rehearsed the daily")
    assert boards(viewer) == {
        **{board: ["bob"] for board in leaderboards.BOARDS},
        "race ratings": ["bob"],
        "daily": ["bob"],
        "daily sections": [1],
    }
    assert ok(token_client(alice).get("/api/v1/leaderboards/wins"))["me"] is None
    moderation.unmark(alice, by=warden, reason="a sister at the same desk")
    assert boards(viewer) == before
    assert RaceRating.objects.get(player=alice).rating == 24  # nothing was changed


def test_a_marked_players_pages_are_hidden_from_others_but_not_from_themselves(
    alice: User, bob: User, alice_api: APIClient, bob_api: APIClient, staff: APIClient
) -> None:
    pages = (
        "/api/v1/players/alice",
        "/api/v1/players/alice/history",
        "/api/v1/players/alice/races",
    )
    moderation.mark(alice, by=User.objects.get(username="warden"), reason="two accounts")
    for page in pages:
        assert alice_api.get(page).status_code == 200, page
        for other in (bob_api, APIClient()):
            response = other.get(page)
            assert response.status_code == 404 and response.json()["error"], page
    assert ok(bob_api.get("/api/v1/players/bob"))["username"] == "bob"


def add_entry(staff: APIClient, user: User, action: str, reason: str) -> Any:
    body = {"user": user.pk, "action": action, "reason": reason}
    return staff.post("/admin/accounts/moderationentry/add/", body)


def test_marks_and_unmarks_are_made_and_logged_in_the_admin(alice: User, staff: APIClient) -> None:
    assert add_entry(staff, alice, "mark", "won 26 in 0.8 s").status_code == 302
    assert Mark.objects.get(user=alice).reason == "won 26 in 0.8 s"
    again = add_entry(staff, alice, "mark", "twice")
    assert again.status_code == 200 and b"alice is already marked." in again.content
    assert add_entry(staff, alice, "unmark", "a fair streak after all").status_code == 302
    assert not Mark.objects.filter(user=alice).exists()
    unmarked = add_entry(staff, alice, "unmark", "twice")
    assert unmarked.status_code == 200 and b"alice is not marked." in unmarked.content
    log = ModerationEntry.objects.order_by("at", "id")
    assert [(e.username, e.action, e.actor_name, e.reason) for e in log] == [
        ("alice", "mark", "warden", "won 26 in 0.8 s"),
        ("alice", "unmark", "warden", "a fair streak after all"),
    ]
    listed = staff.get("/admin/accounts/moderationentry/")
    assert b"won 26 in 0.8 s" in listed.content and b"a fair streak after all" in listed.content
    entry = log.first()
    assert entry is not None
    shown = staff.get(f"/admin/accounts/moderationentry/{entry.pk}/change/")
    assert shown.status_code == 200 and b"won 26 in 0.8 s" in shown.content
    assert staff.post(f"/admin/accounts/moderationentry/{entry.pk}/delete/").status_code == 403


def test_the_admin_pages_load_for_staff(alice: User, staff: APIClient) -> None:
    moderation.mark(alice, by=User.objects.get(username="warden"), reason="checking")
    for page in (*ADMIN_PAGES, "/admin/", "/admin/accounts/"):
        response = staff.get(page)
        assert response.status_code == 200, (page, response.content[:300])
    assert b"checking" in staff.get("/admin/accounts/mark/").content


def test_non_staff_see_none_of_it(alice: User, bob: User) -> None:
    signed_in = APIClient()
    signed_in.force_login(alice)
    for client in (APIClient(), signed_in):
        for page in ADMIN_PAGES:
            response = client.get(page)
            assert response.status_code == 302, page
            assert response["Location"].startswith("/admin/login/"), page
    bob.is_staff = True  # staff, but granted none of these models
    bob.save()
    staff_without_rights = APIClient()
    staff_without_rights.force_login(bob)
    for page in ADMIN_PAGES:
        assert staff_without_rights.get(page).status_code == 403, page


def sign_in(client: APIClient, user: User, **meta: Any) -> None:
    body = {"username": user.username, "password": f"{user.username} battery staple"}
    assert client.post("/api/v1/auth/login", body, format="json", **meta).status_code == 200


def named(signal: fair_play_signals.SharedPlay) -> tuple[str, ...]:
    return tuple(account.name for account in signal.players)


def fair_play_list(staff: APIClient) -> str:
    page = staff.get("/admin/accounts/playsource/")
    assert page.status_code == 200
    return str(page.content.decode())


def test_two_accounts_from_one_browser_playing_the_same_daily_are_listed(staff: APIClient) -> None:
    one, other, elsewhere = player("one"), player("other"), player("elsewhere")
    browser = APIClient()
    sign_in(browser, one)
    cookie = browser.cookies[COOKIE].value
    assert browser.post("/api/v1/auth/logout").status_code in (200, 204)
    sign_in(browser, other)
    assert browser.cookies[COOKIE].value == cookie  # one browser, whoever signs in
    sign_in(APIClient(), elsewhere, REMOTE_ADDR="198.51.100.9")
    for who in (one, other, elsewhere):
        daily_game(who, day=timezone.now().date())
    shared = fair_play_signals.shared_play()
    by_browser = [signal for signal in shared if signal.via == "one browser"]
    assert [named(signal) for signal in by_browser] == [("one", "other")]
    assert by_browser[0].what.startswith("the Classic daily of ")
    assert all("elsewhere" not in named(signal) for signal in shared)
    listed = fair_play_list(staff)
    assert f'href="/admin/accounts/moderationentry/add/?user={one.pk}&amp;action=mark"' in listed
    assert "Mark other" in listed and "one browser" in listed and "elsewhere" not in listed


def test_two_accounts_from_one_address_racing_each_other_are_listed(staff: APIClient) -> None:
    carol, dave, erin = player("carol"), player("dave"), player("erin")
    room = ok(
        token_client(carol).post("/api/v1/races", {}, format="json", REMOTE_ADDR="203.0.113.5"),
        201,
    )["room"]
    for who, address in ((dave, "203.0.113.77"), (erin, "198.51.100.9")):
        joined = token_client(who).post(
            f"/api/v1/races/{room}/join", {}, format="json", REMOTE_ADDR=address
        )
        ok(joined)
    shared = fair_play_signals.shared_play()
    assert [(s.via, named(s), s.what) for s in shared] == [
        ("one address network", ("carol", "dave"), f"race {room}")
    ]
    assert f"race {room}" in fair_play_list(staff)


def test_many_retries_of_one_deal_are_listed(alice_api: APIClient, staff: APIClient) -> None:
    game = new_game(alice_api, code=winning_line()[0])
    ok(post(alice_api, f"/api/v1/games/{game['id']}/resign", {"version": 0}))
    for _ in range(fair_play_signals.MANY_PLAYS - 2):
        ok(post(alice_api, f"/api/v1/games/{game['id']}/retry", {"version": 0}), 201)
    assert fair_play_signals.repeated_deals() == []
    ok(post(alice_api, f"/api/v1/games/{game['id']}/retry", {"version": 0}), 201)
    (signal,) = fair_play_signals.repeated_deals()
    assert (signal.player.name, signal.code, signal.games) == ("alice", winning_line()[0], 5)
    assert winning_line()[0] in fair_play_list(staff)


def test_play_sources_keep_only_keyed_hashes_and_are_purged(db: None) -> None:
    fay = player("fay")
    browser = APIClient()
    sign_in(browser, fay, REMOTE_ADDR="203.0.113.5")
    sign_in(browser, fay, REMOTE_ADDR="203.0.113.6")  # the same network, browser and day
    (source,) = PlaySource.objects.all()
    assert "203.0.113" not in source.address and len(source.address) == 32
    with time_machine.travel(timezone.now() + timedelta(days=31)):
        sign_in(browser, fay, REMOTE_ADDR="203.0.113.5")
        call_command("purge_play_sources", stdout=StringIO())
        assert list(PlaySource.objects.values_list("day", flat=True)) == [timezone.now().date()]
