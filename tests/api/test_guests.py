"""Guest play: one call signs a guest in, it plays for real, stays off every board, upgrades."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.guests import GUEST_PREFIX, SESSION_SECONDS, create_guest
from accounts.models import PlayerSettings
from api.throttles import GuestThrottle
from games.models import Game, MoveLogEntry, PlayerStats, Result
from tests.support.play import new_game, post, winning_line

PASSWORD = "a-long-enough-passphrase"


@pytest.fixture(autouse=True)
def fresh_throttles() -> None:
    cache.clear()


def guest_client() -> tuple[APIClient, dict[str, Any]]:
    client = APIClient(enforce_csrf_checks=True)
    response = client.post("/api/v1/auth/guest")
    assert response.status_code == 201, response.content
    return client, response.json()


def csrf_post(client: APIClient, path: str, body: dict[str, Any] | None = None) -> Any:
    token = client.cookies["csrftoken"].value
    return client.post(path, body or {}, format="json", HTTP_X_CSRFTOKEN=token)


def win_as(client: APIClient) -> dict[str, Any]:
    code, moves = winning_line()
    state = csrf_post(client, "/api/v1/games", {"code": code}).json()
    for move in moves:
        response = csrf_post(
            client,
            f"/api/v1/games/{state['id']}/moves",
            {"move": move, "version": state["version"]},
        )
        assert response.status_code == 200, response.content
        state = response.json()
    assert state["status"] == "won"
    return dict(state)


@pytest.mark.django_db
class TestGuestSession:
    def test_one_call_makes_a_guest_without_password_or_email(self) -> None:
        client, me = guest_client()
        assert me["guest"] is True
        assert me["username"].startswith(GUEST_PREFIX)
        user = User.objects.get(pk=me["id"])
        assert not user.has_usable_password()
        assert user.email == ""
        assert client.get("/api/v1/auth/me").json()["guest"] is True

    def test_the_guest_session_lasts_a_year_not_two_weeks(self) -> None:
        client, _ = guest_client()
        assert int(client.cookies["sessionid"]["max-age"]) == SESSION_SECONDS

    def test_a_body_is_ignored_even_a_broken_one(self) -> None:
        response = APIClient().post(
            "/api/v1/auth/guest", data=b"{not json", content_type="application/json"
        )
        assert response.status_code == 201
        assert response.json()["guest"] is True

    def test_a_signed_in_caller_gets_its_own_account_and_no_new_guest(self) -> None:
        client, me = guest_client()
        again = csrf_post(client, "/api/v1/auth/guest")
        assert again.status_code == 200
        assert again.json()["id"] == me["id"]
        assert PlayerSettings.objects.filter(is_guest=True).count() == 1

    def test_a_guest_plays_a_random_deal_and_a_code(self) -> None:
        client, me = guest_client()
        random = csrf_post(client, "/api/v1/games", {"rule": "R"})
        assert random.status_code == 201
        assert random.json()["owner"] == me["username"]
        code, line = winning_line()
        coded = csrf_post(client, "/api/v1/games", {"code": code})
        assert coded.status_code == 201
        assert coded.json()["owner"] == me["username"]
        # A move on the known deal: a random one may offer none.
        played = csrf_post(
            client, f"/api/v1/games/{coded.json()['id']}/moves", {"move": line[0], "version": 0}
        )
        assert played.status_code == 200
        assert played.json()["move_count"] == 1

    def test_a_guest_can_watch_another_players_game(self, alice_api: APIClient) -> None:
        game = new_game(alice_api)
        client, _ = guest_client()
        assert client.get(f"/api/v1/games/{game['id']}").status_code == 200

    def test_a_guest_session_can_make_a_personal_token_for_a_client(self) -> None:
        client, me = guest_client()
        made = csrf_post(client, "/api/v1/tokens", {"name": "my bot"})
        assert made.status_code == 201, made.content
        bot = APIClient()
        bot.credentials(HTTP_AUTHORIZATION=f"Bearer {made.json()['token']}")
        assert bot.get("/api/v1/auth/me").json()["username"] == me["username"]

    def test_a_guest_cannot_log_in_with_any_password(self) -> None:
        _, me = guest_client()
        for password in ("", "!", PASSWORD):
            response = post(
                APIClient(),
                "/api/v1/auth/login",
                {"username": me["username"], "password": password},
            )
            assert response.status_code in (400, 401)

    def test_a_classroom_of_thirty_behind_one_address_can_start(self) -> None:
        pupils = [APIClient(REMOTE_ADDR="198.51.100.7") for _ in range(30)]
        answers = [pupil.post("/api/v1/auth/guest") for pupil in pupils]
        assert [answer.status_code for answer in answers] == [201] * 30
        assert len({answer.json()["username"] for answer in answers}) == 30

    def test_guest_creation_is_throttled_per_address(self, settings: Any) -> None:
        """Past a ceiling a classroom behind one address never reaches (it stopped the 21st
        pupil: a class of 30 could not start)."""
        rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        assert rates["guest"] == "300/hour"
        # The address's window as 299 guests made this hour would leave it (DRF's history).
        key = GuestThrottle.cache_format % {"scope": "guest", "ident": "127.0.0.1"}
        cache.set(key, [time.time()] * 299, 3600)
        assert APIClient().post("/api/v1/auth/guest").status_code == 201
        refused = APIClient().post("/api/v1/auth/guest")
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "throttled"
        assert "Retry-After" in refused
        other = APIClient(REMOTE_ADDR="127.0.0.9").post("/api/v1/auth/guest")
        assert other.status_code == 201


@pytest.mark.django_db
class TestNoBoardShowsGuests:
    def test_leaderboards_and_profiles_leave_guests_out(self) -> None:
        client, me = guest_client()
        win_as(client)
        assert PlayerStats.objects.get(player_id=me["id"]).wins == 1
        for board in ("wins", "fastest", "fewest-moves"):
            body = APIClient().get(f"/api/v1/leaderboards/{board}").json()
            assert [row["player"] for row in body["results"]] == [], board
            assert client.get(f"/api/v1/leaderboards/{board}").json()["me"] is None
        for path in (
            f"/api/v1/players/{me['username']}",
            f"/api/v1/players/{me['username']}/history",
        ):
            response = APIClient().get(path)
            assert response.status_code == 404
            assert response.json()["error"]["code"] == "not-found"


@pytest.mark.django_db
class TestUpgrade:
    def test_signing_up_keeps_games_statistics_and_settings(self) -> None:
        client, me = guest_client()
        won = win_as(client)
        running = csrf_post(client, "/api/v1/games", {"rule": "C"}).json()
        patched = client.patch(
            "/api/v1/me/settings",
            {"four_colour_suits": True},
            format="json",
            HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
        )
        assert patched.status_code == 200
        response = csrf_post(
            client, "/api/v1/auth/upgrade", {"username": "gina", "password": PASSWORD}
        )
        assert response.status_code == 200, response.content
        upgraded = response.json()
        assert upgraded["id"] == me["id"]
        assert upgraded["username"] == "gina"
        assert upgraded["guest"] is False
        assert upgraded["settings"]["four_colour_suits"] is True
        # The session survives the password change, and every game is still the player's.
        mine = client.get("/api/v1/games?page_size=50").json()["results"]
        assert {game["id"] for game in mine} == {won["id"], running["id"]}
        profile = APIClient().get("/api/v1/players/gina").json()
        assert profile["stats"]["C"]["wins"] == 1
        board = APIClient().get("/api/v1/leaderboards/wins").json()
        assert [row["player"] for row in board["results"]] == ["gina"]
        login = post(APIClient(), "/api/v1/auth/login", {"username": "gina", "password": PASSWORD})
        assert login.status_code == 200

    def test_the_name_must_be_free_case_insensitively_and_not_a_guest_name(
        self, alice: User
    ) -> None:
        client, me = guest_client()
        other = create_guest()
        for name, status in [
            ("ALICE", 409),
            ("alice", 409),
            (other.username, 400),
            ("Guest-123", 400),
            (GUEST_PREFIX + "abc", 400),
        ]:
            response = csrf_post(
                client, "/api/v1/auth/upgrade", {"username": name, "password": PASSWORD}
            )
            assert response.status_code == status, name
            assert "username" in response.json()["error"]["fields"], name
        assert User.objects.get(pk=me["id"]).username == me["username"]

    def test_registration_refuses_the_guest_prefix(self) -> None:
        response = post(
            APIClient(), "/api/v1/auth/register", {"username": "guest-bob", "password": PASSWORD}
        )
        assert response.status_code == 400
        assert "username" in response.json()["error"]["fields"]

    def test_a_registered_player_or_nobody_cannot_upgrade(self, alice: User) -> None:
        client = APIClient()
        client.force_login(alice)
        response = client.post(
            "/api/v1/auth/upgrade", {"username": "x2", "password": PASSWORD}, format="json"
        )
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "not-a-guest"
        nobody = post(APIClient(), "/api/v1/auth/upgrade", {"username": "x3", "password": PASSWORD})
        assert nobody.status_code in (401, 403)

    @pytest.mark.parametrize(
        "body",
        [
            [],
            "gina",
            {"username": ["gina"], "password": PASSWORD},
            {"username": "gina", "password": 12345678901},
            {"username": "gina"},
            {"username": "", "password": PASSWORD},
            {"username": "g" * 151, "password": PASSWORD},
            {"username": "gi na", "password": PASSWORD},
            {"username": "gina\x00", "password": PASSWORD},
            {"username": "gina", "password": "p" * 257},
            {"username": "gina", "password": PASSWORD, "email": "not-an-address"},
        ],
    )
    def test_hostile_input_is_a_4xx_json_error(self, body: Any) -> None:
        client, me = guest_client()
        response = csrf_post(client, "/api/v1/auth/upgrade", body)
        assert 400 <= response.status_code < 500, response.content
        assert response.json()["error"]["code"]
        assert User.objects.get(pk=me["id"]).username == me["username"]

    def test_an_upgrade_without_the_csrf_token_is_refused(self) -> None:
        client, me = guest_client()
        response = client.post(
            "/api/v1/auth/upgrade", {"username": "gina", "password": PASSWORD}, format="json"
        )
        assert response.status_code == 403
        assert User.objects.get(pk=me["id"]).username == me["username"]


@pytest.mark.django_db
class TestPurge:
    def age(self, user: User, days: int) -> None:
        then = timezone.now() - timedelta(days=days)
        User.objects.filter(pk=user.pk).update(date_joined=then, last_login=then)
        Game.objects.filter(owner=user).update(created_at=then, last_move_at=then)

    def test_idle_guests_go_with_their_games_active_ones_and_players_stay(
        self, alice: User
    ) -> None:
        client, me = guest_client()
        idle_game = win_as(client)
        idle = User.objects.get(pk=me["id"])
        self.age(idle, 31)
        fresh = create_guest()
        playing = create_guest()
        new_game_client = APIClient()
        new_game_client.force_login(playing)
        new_game(new_game_client)
        self.age(playing, 40)
        Game.objects.filter(owner=playing).update(last_move_at=timezone.now() - timedelta(days=2))
        self.age(alice, 100)
        call_command("purge_guests")
        assert not User.objects.filter(pk=idle.pk).exists()
        assert not Game.objects.filter(pk=idle_game["id"]).exists()
        assert not MoveLogEntry.objects.filter(game_id=idle_game["id"]).exists()
        assert not Result.objects.filter(player_id=idle.pk).exists()
        assert not PlayerStats.objects.filter(player_id=idle.pk).exists()
        assert set(User.objects.values_list("pk", flat=True)) == {alice.pk, fresh.pk, playing.pk}

    def test_days_is_an_option(self) -> None:
        guest = create_guest()
        self.age(guest, 10)
        call_command("purge_guests", "--days", "30")
        assert User.objects.filter(pk=guest.pk).exists()
        call_command("purge_guests", "--days", "7")
        assert not User.objects.filter(pk=guest.pk).exists()


@pytest.mark.django_db
class TestNoTakeover:
    def test_a_guests_token_cannot_upgrade_the_guest(self) -> None:
        """A leaked token must not set the account's password (and so get a session)."""
        client, _ = guest_client()
        made = csrf_post(client, "/api/v1/tokens", {"name": "my bot"}).json()
        bot = APIClient()
        bot.credentials(HTTP_AUTHORIZATION=f"Bearer {made['token']}")
        response = bot.post(
            "/api/v1/auth/upgrade", {"username": "mallory", "password": PASSWORD}, format="json"
        )
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "session-required"
        assert not User.objects.filter(username="mallory").exists()

    def test_an_upgraded_guest_gets_the_ordinary_session_length(self) -> None:
        client, _ = guest_client()
        response = csrf_post(
            client, "/api/v1/auth/upgrade", {"username": "gina", "password": PASSWORD}
        )
        assert response.status_code == 200, response.content
        assert client.session.get_expiry_age() != SESSION_SECONDS

    @pytest.mark.parametrize(
        "path", ["/api/v1/auth/guest", "/api/v1/auth/login", "/api/v1/auth/register"]
    )
    @pytest.mark.parametrize(
        "headers",
        [
            {"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
            {"Origin": "https://evil.example"},
            {"Origin": "null"},
            {"Sec-Fetch-Site": "cross-site"},
        ],
    )
    def test_another_sites_page_cannot_sign_a_visitor_in(
        self, path: str, headers: dict[str, str], alice: User
    ) -> None:
        """Login CSRF: a form on another site would otherwise replace the visitor's session."""
        body = {"username": "alice", "password": "correct horse battery"}
        response = APIClient().post(path, body, format="json", headers=headers)
        assert response.status_code == 403, response.content
        assert response.json()["error"]["code"] == "cross-site-request"
        assert "sessionid" not in response.cookies

    @pytest.mark.parametrize(
        "headers",
        [
            {},
            {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},
            {"Origin": "http://testserver"},
        ],
    )
    def test_this_sites_page_and_scripts_still_make_guests(self, headers: dict[str, str]) -> None:
        response = APIClient().post("/api/v1/auth/guest", headers=headers)
        assert response.status_code == 201, response.content
