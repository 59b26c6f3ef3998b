"""One name, one player: usernames are stored NFKC-normalized and unique whatever their case.

A full-width `nfkc` + `victim1` is `nfkcvictim1`, `CaseX` is `casex`: registering or upgrading
a guest to such a twin is a 409 `username-taken` (it was a 500, or a second account that
looked the same); the database's own unique index refuses a twin however it is written,
concurrent registrations included. Logging in and profile addresses accept any case and width.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from rest_framework.test import APIClient

from accounts.models import PlayerSettings
from tests.support.play import post

PASSWORD = "a-long-enough-passphrase"


def wide(text: str) -> str:
    """`text` in full-width forms (U+FF01 to U+FF5E), which NFKC turns back into ASCII."""
    return "".join(chr(ord(char) + 0xFEE0) if "!" <= char <= "~" else char for char in text)


@pytest.fixture(autouse=True)
def fresh_throttles() -> None:
    cache.clear()


def register(name: str, client: APIClient | None = None) -> Any:
    return post(
        client or APIClient(), "/api/v1/auth/register", {"username": name, "password": PASSWORD}
    )


def guest() -> tuple[APIClient, dict[str, Any]]:
    client = APIClient(enforce_csrf_checks=True)
    me = client.post("/api/v1/auth/guest").json()
    return client, me


def upgrade(client: APIClient, name: str) -> Any:
    token = client.cookies["csrftoken"].value
    body = {"username": name, "password": PASSWORD}
    return client.post("/api/v1/auth/upgrade", body, format="json", HTTP_X_CSRFTOKEN=token)


def assert_taken(response: Any) -> None:
    assert response.status_code == 409, response.content
    error = response.json()["error"]
    assert error["code"] == "username-taken"
    assert error["message"]
    assert error["fields"]["username"] == [error["message"]]


@pytest.mark.django_db
class TestRegistration:
    @pytest.mark.parametrize(
        ("existing", "twin"),
        [
            ("nfkcvictim1", wide("nfkc") + "victim1"),
            ("nfkcvictim1", "nfkcvictim1"),
            ("casex", "CaseX"),
            ("CaseX", wide("CASEX")),
            ("\N{LATIN SMALL LIGATURE FI}sh", "FISH"),
        ],
    )
    def test_a_twin_of_a_taken_name_is_a_409(self, existing: str, twin: str) -> None:
        assert register(existing).status_code == 201
        assert_taken(register(twin))
        assert User.objects.count() == 1

    def test_the_name_is_stored_normalized_with_its_case(self) -> None:
        response = register(wide("Carol") + "\N{CIRCLED DIGIT ONE}")
        assert response.status_code == 201, response.content
        assert response.json()["username"] == "Carol1"
        assert User.objects.get().username == "Carol1"

    @pytest.mark.parametrize(
        "name", [wide("guest") + "-abc", "GUEST-abc", wide("G") + "uest-1", wide("guest-x")]
    )
    def test_the_guest_prefix_is_checked_on_the_normalized_name(self, name: str) -> None:
        response = register(name)
        assert response.status_code == 400, response.content
        assert response.json()["error"]["code"] == "invalid-request"
        assert "username" in response.json()["error"]["fields"]
        assert not User.objects.exists()

    def test_a_name_too_long_once_normalized_is_a_400(self) -> None:
        response = register("\N{SQUARE CORPORATION}" * 40)  # 40 characters, 160 once NFKC
        assert response.status_code == 400, response.content
        assert "username" in response.json()["error"]["fields"]

    def test_the_database_refuses_a_case_twin_however_it_is_written(self) -> None:
        User.objects.create(username="Dave")
        with pytest.raises(IntegrityError), transaction.atomic():
            User.objects.create(username="dAVE")
        assert list(User.objects.values_list("username", flat=True)) == ["Dave"]


def assert_not_allowed(response: Any) -> None:
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "username-not-allowed"
    assert error["message"]
    assert error["fields"]["username"] == [error["message"]]


@pytest.mark.django_db
class TestNewNames:
    """New names are ASCII letters, digits, `_` and `-`, 2 to 20 characters: no look-alike of
    another player's name (a sharp s, a dotless i, a Cyrillic a) is a new player."""

    @pytest.mark.parametrize(
        ("existing", "look_alike"),
        [
            ("STRASSE_9", "stra\N{LATIN SMALL LETTER SHARP S}e_9"),
            ("Irma", "\N{LATIN SMALL LETTER DOTLESS I}rma"),
            ("alice", "\N{CYRILLIC SMALL LETTER A}lice"),
        ],
    )
    def test_a_look_alike_of_a_name_is_refused(self, existing: str, look_alike: str) -> None:
        assert register(existing).status_code == 201
        assert_not_allowed(register(look_alike))
        assert list(User.objects.values_list("username", flat=True)) == [existing]

    @pytest.mark.parametrize(
        "name",
        [
            "a",
            "x" * 21,
            "two words",
            "dot.name",
            "at@home",
            "plus+one",
            "caf\N{LATIN SMALL LETTER E WITH ACUTE}",
        ],
    )
    def test_a_name_outside_the_rule_is_a_400_with_its_code(self, name: str) -> None:
        assert_not_allowed(register(name))
        assert not User.objects.exists()

    @pytest.mark.parametrize("name", ["ab", "x" * 20, "Snake_case-9", "--__"])
    def test_names_inside_the_rule_are_accepted(self, name: str) -> None:
        response = register(name)
        assert response.status_code == 201, response.content
        assert response.json()["username"] == name

    def test_the_refusal_speaks_the_players_language(self) -> None:
        client = APIClient(HTTP_ACCEPT_LANGUAGE="de")
        error = register("stra\N{LATIN SMALL LETTER SHARP S}e", client).json()["error"]
        assert error["code"] == "username-not-allowed"
        assert "Zeichen" in error["message"]

    def test_a_guest_upgrade_follows_the_rule(self) -> None:
        client, me = guest()
        assert_not_allowed(upgrade(client, "\N{CYRILLIC SMALL LETTER A}nna"))
        assert User.objects.get(pk=me["id"]).username == me["username"]

    def test_an_existing_name_outside_the_rule_still_signs_in_and_shows(self) -> None:
        User.objects.create_user(
            "\N{LATIN SMALL LETTER O WITH DIAERESIS}lfa.old", password=PASSWORD
        )
        body = {
            "username": "\N{LATIN CAPITAL LETTER O WITH DIAERESIS}LFA.old",
            "password": PASSWORD,
        }
        response = post(APIClient(), "/api/v1/auth/login", body)
        assert response.status_code == 200, response.content
        assert response.json()["username"] == "ölfa.old"
        profile = APIClient().get("/api/v1/players/%C3%B6lfa.old")
        assert profile.status_code == 200, profile.content
        assert profile.json()["username"] == "ölfa.old"

    def test_a_new_name_in_another_case_of_an_existing_one_is_taken(self) -> None:
        User.objects.create_user("Old-Timer", password=PASSWORD)
        assert_taken(register("old-timer"))


@pytest.mark.django_db
class TestGuestUpgrade:
    @pytest.mark.parametrize(
        "twin", [wide("ga") + "6" + wide("c") + "095" + wide("a"), "GA6C095A", "ga6c095a"]
    )
    def test_an_upgrade_to_a_twin_of_a_taken_name_is_a_409(self, twin: str) -> None:
        assert register("ga6c095a").status_code == 201
        client, me = guest()
        assert_taken(upgrade(client, twin))
        assert User.objects.get(pk=me["id"]).username == me["username"]
        assert PlayerSettings.objects.get(user_id=me["id"]).is_guest

    def test_the_upgraded_name_is_stored_normalized(self) -> None:
        client, me = guest()
        response = upgrade(client, wide("Gina"))
        assert response.status_code == 200, response.content
        assert User.objects.get(pk=me["id"]).username == "Gina"

    @pytest.mark.parametrize("name", [wide("guest") + "-abc", "GUEST-x"])
    def test_an_upgrade_to_a_guest_name_in_disguise_is_a_400(self, name: str) -> None:
        client, me = guest()
        response = upgrade(client, name)
        assert response.status_code == 400, response.content
        assert "username" in response.json()["error"]["fields"]
        assert User.objects.get(pk=me["id"]).username == me["username"]


@pytest.mark.django_db
class TestFindingAPlayer:
    @pytest.mark.parametrize("typed", ["Alice", "ALICE", wide("alice"), "alice"])
    def test_login_takes_any_case_and_width(self, alice: User, typed: str) -> None:
        body = {"username": typed, "password": "correct horse battery"}
        response = post(APIClient(), "/api/v1/auth/login", body)
        assert response.status_code == 200, response.content
        assert response.json()["username"] == "alice"

    def test_a_wrong_password_is_still_refused_in_any_case(self, alice: User) -> None:
        response = post(APIClient(), "/api/v1/auth/login", {"username": "ALICE", "password": "no"})
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "bad-credentials"

    @pytest.mark.parametrize("typed", ["ALICE", "%EF%BD%81lice", "Alice"])
    def test_a_profile_is_found_by_any_case_and_width(self, alice: User, typed: str) -> None:
        for suffix in ("", "/history", "/races"):
            response = APIClient().get(f"/api/v1/players/{typed}{suffix}")
            assert response.status_code == 200, (suffix, response.content)
        assert APIClient().get(f"/api/v1/players/{typed}").json()["username"] == "alice"


@pytest.mark.django_db(transaction=True)
def test_two_registrations_of_case_twins_at_once_make_one_account() -> None:
    names = ["CaseX", "casex"]
    start = threading.Barrier(len(names), timeout=60)
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def sign_up(name: str) -> None:
        try:
            client = APIClient(REMOTE_ADDR=f"203.0.113.{names.index(name) + 1}")
            start.wait()
            status = register(name, client).status_code
            with lock:
                statuses[status] += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == Counter({201: 1, 409: 1})
    assert User.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_twin_written_while_the_registration_runs_is_a_409_not_a_500() -> None:
    """The registration's own check sees no twin (not committed yet); its insert waits on the
    unique index, and the twin's commit turns it into the 409."""
    written = threading.Event()
    release = threading.Event()

    def write_the_twin() -> None:
        try:
            with transaction.atomic():
                User.objects.create(username="Raced")
                written.set()
                assert release.wait(60)
        finally:
            connection.close()

    twin = threading.Thread(target=write_the_twin)
    twin.start()
    assert written.wait(60)
    answer: list[Any] = []
    registration = threading.Thread(target=lambda: answer.append(register_and_close("raced")))
    registration.start()
    waits_on_lock(ceiling_seconds=60)
    release.set()
    twin.join()
    registration.join()
    assert_taken(answer[0])
    assert list(User.objects.values_list("username", flat=True)) == ["Raced"]


def register_and_close(name: str) -> Any:
    try:
        return register(name)
    finally:
        connection.close()


def waits_on_lock(ceiling_seconds: float) -> None:
    """Return once some backend of this database waits on a lock (the blocked insert)."""
    deadline = threading.Event()
    timer = threading.Timer(ceiling_seconds, deadline.set)
    timer.start()
    try:
        with connection.cursor() as cursor:
            while not deadline.is_set():
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
                if cursor.fetchone()[0]:
                    return
        raise AssertionError("the registration never waited on the twin's row")
    finally:
        timer.cancel()
