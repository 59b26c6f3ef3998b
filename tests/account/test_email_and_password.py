"""E-mail addresses, password changes and resets through the API, e-mails read from a real
SMTP server (docs/api.md, "Your account")."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.core import signing
from rest_framework.test import APIClient

from accounts.models import PlayerSettings
from scripts.processes import free_port
from tests.support.smtp import Mailbox, link_in, text_of

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a brand new sentence 42"


def signed_in(username: str, password: str = PASSWORD) -> APIClient:
    client = APIClient()
    assert client.login(username=username, password=password)
    return client


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["token"][0]


def confirmed_address(client: APIClient, mailbox: Mailbox, address: str) -> None:
    assert client.post("/api/v1/me/email", {"email": address}, format="json").status_code == 202
    token = token_of(link_in(mailbox.wait_for(address)))
    answer = APIClient().post("/api/v1/auth/email/confirm", {"token": token}, format="json")
    assert answer.status_code == 200, answer.content


def test_a_new_address_is_stored_once_its_link_is_followed_and_the_old_one_is_told(
    alice: User, mailbox: Mailbox
) -> None:
    client = signed_in("alice")
    confirmed_address(client, mailbox, "alice@example.org")
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
    assert PlayerSettings.for_user(alice).email_confirmed

    answer = client.post("/api/v1/me/email", {"email": "alice@new.example"}, format="json")
    assert answer.status_code == 202
    told = mailbox.wait_for("alice@example.org", 2)
    assert "alice@new.example" in text_of(told)
    link = link_in(mailbox.wait_for("alice@new.example"))
    assert urlsplit(link).path == "/account/email"
    alice.refresh_from_db()
    assert alice.email == "alice@example.org", "nothing changes before the link is followed"
    token = token_of(link)
    assert (
        client.post("/api/v1/auth/email/confirm", {"token": token}, format="json").status_code
        == 200
    )
    alice.refresh_from_db()
    assert alice.email == "alice@new.example"

    replayed = client.post("/api/v1/auth/email/confirm", {"token": token}, format="json")
    assert replayed.status_code == 409
    assert replayed.json()["error"]["code"] == "link-used"


def test_the_e_mail_is_in_the_players_language_with_a_plain_text_and_an_html_part(
    alice: User, mailbox: Mailbox
) -> None:
    PlayerSettings.objects.update_or_create(user=alice, defaults={"language": "de"})
    signed_in("alice").post("/api/v1/me/email", {"email": "alice@example.org"}, format="json")
    message = mailbox.wait_for("alice@example.org")
    assert message["Subject"] == "Bestätige deine E-Mail-Adresse für Yukon"
    assert "Hallo alice," in text_of(message)
    html = message.get_body(preferencelist=("html",))
    assert html is not None and "<a href=" in str(html.get_content())


def test_wrong_and_expired_links_are_clear_refusals(
    alice: User, mailbox: Mailbox, settings: Any
) -> None:
    client = APIClient()
    wrong = client.post("/api/v1/auth/email/confirm", {"token": "garbage"}, format="json")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (400, "link-invalid")
    old = signing.dumps(
        {"user": alice.pk, "old": "", "new": "a@example.org"}, salt="yukon.email-confirm"
    )
    settings.ACCOUNT_LINK_SECONDS = -1  # every token made so far is now too old
    expired = client.post("/api/v1/auth/email/confirm", {"token": old}, format="json")
    assert (expired.status_code, expired.json()["error"]["code"]) == (410, "link-expired")
    reset = client.post(
        "/api/v1/auth/password-reset/confirm",
        {"token": "nonsense", "new_password": NEW_PASSWORD},
        format="json",
    )
    assert (reset.status_code, reset.json()["error"]["code"]) == (400, "link-invalid")


def test_a_password_change_needs_the_current_one_and_signs_out_the_other_sessions(
    alice: User,
) -> None:
    here, elsewhere = signed_in("alice"), signed_in("alice")
    wrong = here.post(
        "/api/v1/me/password",
        {"current_password": "nope", "new_password": NEW_PASSWORD},
        format="json",
    )
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (400, "wrong-password")
    weak = here.post(
        "/api/v1/me/password", {"current_password": PASSWORD, "new_password": "123"}, format="json"
    )
    assert weak.status_code == 400 and "new_password" in weak.json()["error"]["fields"]
    changed = here.post(
        "/api/v1/me/password",
        {"current_password": PASSWORD, "new_password": NEW_PASSWORD},
        format="json",
    )
    assert changed.status_code == 204
    assert here.get("/api/v1/auth/me").status_code == 200
    assert elsewhere.get("/api/v1/auth/me").status_code in (401, 403)
    # The sessions list says so too (and the other session's sockets were told: signed_out),
    # and still lists this one.
    listed = here.get("/api/v1/me/sessions").json()
    assert [row["current"] for row in listed] == [True]
    assert signed_in("alice", NEW_PASSWORD)


def test_a_password_change_with_a_token_is_refused(alice_api: APIClient) -> None:
    answer = alice_api.post(
        "/api/v1/me/password",
        {"current_password": PASSWORD, "new_password": NEW_PASSWORD},
        format="json",
    )
    assert answer.json()["error"]["code"] == "session-required"


def test_a_reset_link_works_once_in_any_letter_case_and_signs_out_every_session(
    alice: User, mailbox: Mailbox
) -> None:
    session = signed_in("alice")
    confirmed_address(session, mailbox, "Alice@Example.org")
    asked = APIClient().post(
        "/api/v1/auth/password-reset", {"email": "aLICE@example.ORG"}, format="json"
    )
    assert asked.status_code == 202
    link = link_in(mailbox.wait_for("Alice@Example.org", 2))
    assert urlsplit(link).path == "/account/reset"
    body = {"token": token_of(link), "new_password": NEW_PASSWORD}
    confirmed = APIClient().post("/api/v1/auth/password-reset/confirm", body, format="json")
    assert confirmed.status_code == 204, confirmed.content
    assert session.get("/api/v1/auth/me").status_code in (401, 403)
    assert signed_in("alice", NEW_PASSWORD)

    body["new_password"] = "yet another sentence 7"
    replayed = APIClient().post("/api/v1/auth/password-reset/confirm", body, format="json")
    assert (replayed.status_code, replayed.json()["error"]["code"]) == (409, "link-used")


def test_a_reset_request_answers_the_same_for_unknown_and_unconfirmed_addresses(
    alice: User, bob: User, mailbox: Mailbox
) -> None:
    User.objects.filter(pk=bob.pk).update(email="bob@example.org")  # never confirmed
    answers = [
        APIClient().post("/api/v1/auth/password-reset", {"email": address}, format="json")
        for address in ("nobody@example.org", "bob@example.org")
    ]
    assert [a.status_code for a in answers] == [202, 202]
    assert answers[0].json() == answers[1].json()
    confirmed_address(signed_in("alice"), mailbox, "alice@example.org")
    APIClient().post("/api/v1/auth/password-reset", {"email": "alice@example.org"}, format="json")
    mailbox.wait_for("alice@example.org", 2)  # the reset, sent after the others were asked
    assert not mailbox.to("bob@example.org") and not mailbox.to("nobody@example.org")


@pytest.mark.parametrize("address", ["nobody@example.org", "alice@example.org"])
def test_reset_requests_are_throttled_per_address_whoever_owns_it(
    alice: User, mailbox: Mailbox, settings: Any, address: str
) -> None:
    confirmed_address(signed_in("alice"), mailbox, "alice@example.org")
    settings.PASSWORD_RESET_MAILS_PER_HOUR = 2
    codes = [
        APIClient()
        .post("/api/v1/auth/password-reset", {"email": address.upper()}, format="json")
        .status_code
        for _ in range(3)
    ]
    assert codes == [202, 202, 429]
    refused = APIClient().post("/api/v1/auth/password-reset", {"email": address}, format="json")
    assert refused.json()["error"]["code"] == "reset-throttled"


def test_an_address_given_at_sign_up_is_unconfirmed_until_its_link_is_followed(
    db: None, mailbox: Mailbox
) -> None:
    client = APIClient()
    body = {"username": "carol", "password": PASSWORD, "email": "carol@example.org"}
    me = client.post("/api/v1/auth/register", body, format="json").json()
    assert (me["email"], me["email_confirmed"]) == ("carol@example.org", False)
    token = token_of(link_in(mailbox.wait_for("carol@example.org")))
    confirmed = client.post("/api/v1/auth/email/confirm", {"token": token}, format="json")
    assert confirmed.status_code == 200
    assert client.get("/api/v1/auth/me").json()["email_confirmed"] is True


def test_an_account_gets_no_more_reset_e_mails_than_its_quota_across_its_addresses(
    alice: User, mailbox: Mailbox, settings: Any
) -> None:
    settings.PASSWORD_RESET_MAILS_PER_HOUR = 2
    client = signed_in("alice")
    confirmed_address(client, mailbox, "alice@old.example")
    for _ in range(2):
        APIClient().post(
            "/api/v1/auth/password-reset", {"email": "alice@old.example"}, format="json"
        )
    mailbox.wait_for("alice@old.example", 3)  # the confirmation, then two resets
    confirmed_address(client, mailbox, "alice@new.example")
    asked = APIClient().post(
        "/api/v1/auth/password-reset", {"email": "alice@new.example"}, format="json"
    )
    assert asked.status_code == 202, "the same answer: the account's quota is not told"
    client.post("/api/v1/me/email", {"email": "alice@new.example"}, format="json")
    mailbox.wait_for("alice@new.example", 2)  # a later e-mail arrived: the reset would be before
    subjects = [str(message["Subject"]) for message in mailbox.to("alice@new.example")]
    assert "Reset your Yukon password" not in subjects


def test_a_mail_server_that_is_down_is_a_clear_503_and_tells_nobody_about_accounts(
    alice: User, mailbox: Mailbox, settings: Any
) -> None:
    client = signed_in("alice")
    confirmed_address(client, mailbox, "alice@example.org")
    # A port nobody listens on: the connection is refused.
    settings.MAILERS = {
        "default": {**mailbox.mailer(), "OPTIONS": {"host": "127.0.0.1", "port": free_port()}}
    }
    refused = client.post("/api/v1/me/email", {"email": "alice@new.example"}, format="json")
    assert (refused.status_code, refused.json()["error"]["code"]) == (503, "mail-unavailable")
    answers = [
        APIClient().post("/api/v1/auth/password-reset", {"email": address}, format="json")
        for address in ("alice@example.org", "nobody@example.org")
    ]
    assert [a.status_code for a in answers] == [202, 202]
    body = {"username": "dora", "password": PASSWORD, "email": "dora@example.org"}
    assert APIClient().post("/api/v1/auth/register", body, format="json").status_code == 201
