"""API errors in the player's language: the message is translated, the machine code is not."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from rest_framework.test import APIClient

from accounts.models import PlayerSettings
from api.errors import error_codes, sentences
from games.engine import REFUSALS
from tests.support.play import new_game, post

CODE = "YU1-C-AAAAAAB"
#: At CODE's deal, 7♥ (column 1) onto 8♥ (column 6): right rank, same colour.
SAME_COLOUR = "7H>6"


def refuse(client: APIClient, **headers: str) -> dict[str, str]:
    state = new_game(client, code=CODE)
    response = client.post(
        f"/api/v1/games/{state['id']}/moves",
        {"move": SAME_COLOUR, "version": 0},
        format="json",
        headers=headers,
    )
    assert response.status_code == 422
    return dict(response.json()["error"])


@pytest.mark.django_db
class TestRefusedMoves:
    def test_english_keeps_the_engines_sentence(self, alice_api: APIClient) -> None:
        error = refuse(alice_api, accept_language="en")
        assert error["code"] == "wrong-colour"
        assert error["rule"] == "build"
        assert error["message"].startswith("7♥ cannot go on 8♥ in column 6")

    def test_accept_language_hu_gives_hungarian_with_the_same_code(
        self, alice_api: APIClient
    ) -> None:
        error = refuse(alice_api, accept_language="hu-HU,hu;q=0.9,en;q=0.5")
        assert error["code"] == "wrong-colour"
        assert error["rule"] == "build"
        assert error["message"] == (
            "7♥ nem tehető a(z) 6. oszlop 8♥ lapjára: a Klasszikus szabály szerint "
            "piros kerül feketére, fekete pirosra."
        )

    @pytest.mark.parametrize(
        ("language", "start"),
        [("pt-PT", "7♥ não pode ir para cima de 8♥ na coluna 6"), ("de", "7♥ passt nicht auf 8♥")],
    )
    def test_portuguese_and_german(self, alice_api: APIClient, language: str, start: str) -> None:
        error = refuse(alice_api, accept_language=language)
        assert error["code"] == "wrong-colour"
        assert error["message"].startswith(start)

    def test_the_players_stored_language_beats_accept_language(
        self, alice: User, alice_api: APIClient
    ) -> None:
        PlayerSettings.objects.update_or_create(user=alice, defaults={"language": "de"})
        error = refuse(alice_api, accept_language="hu")
        assert error["message"].startswith("7♥ passt nicht auf 8♥ in Spalte 6")

    def test_undo_with_nothing_to_undo_names_the_limit(self, alice_api: APIClient) -> None:
        state = new_game(alice_api, code=CODE)
        response = alice_api.post(
            f"/api/v1/games/{state['id']}/undo",
            {"version": 0},
            format="json",
            headers={"accept-language": "pt"},
        )
        assert response.json()["error"]["code"] == "nothing-to-undo"
        assert response.json()["error"]["message"] == (
            "Não há nada para anular: só as últimas 100 jogadas podem ser anuladas."
        )


@pytest.mark.django_db
def test_a_service_refusal_is_translated_too(alice_api: APIClient, bob_api: APIClient) -> None:
    state = new_game(bob_api, code=CODE)
    response = alice_api.post(
        f"/api/v1/games/{state['id']}/undo",
        {"version": 0},
        format="json",
        headers={"accept-language": "de"},
    )
    assert response.status_code == 403
    assert response.json()["error"] == {
        "code": "not-your-game",
        "message": "Dieses Spiel gehört einer anderen Person.",
    }


@pytest.mark.django_db
def test_a_bad_game_code_falls_back_to_the_codes_description(alice_api: APIClient) -> None:
    response = post(alice_api, "/api/v1/games", {"code": "XX1-C-AAAAAAB"})
    hungarian = alice_api.post(
        "/api/v1/games", {"code": "XX1-C-AAAAAAB"}, format="json", headers={"accept-language": "hu"}
    )
    assert hungarian.status_code == response.status_code == 400
    assert hungarian.json()["error"]["code"] == response.json()["error"]["code"]
    assert hungarian.json()["error"]["message"] != response.json()["error"]["message"]


@pytest.mark.parametrize("language", ["hu", "pt", "de"])
def test_every_sentence_is_translated(language: str) -> None:
    """Every refusal sentence of the engine, and every code's sentence the API answers with,
    reads differently in each language: a missing one would fall back to English unseen."""
    for refusal in REFUSALS:
        with translation.override(language):
            assert translation.gettext(refusal.template) != refusal.template
    untranslated = []
    for code, sentence in sentences().items():
        with translation.override("en"):
            english = translation.gettext(str(sentence))
        with translation.override(language):
            if translation.gettext(str(sentence)) == english:
                untranslated.append(code)
    assert untranslated == [], f"{language}: no translation of {untranslated}"


def test_every_code_has_its_sentence() -> None:
    assert set(sentences()) >= error_codes()
