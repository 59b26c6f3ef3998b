"""Puzzles through the API: today's puzzle, your next one, answering (right, wrong, move by
move, refused), ratings, streaks and the deck, and who may see a puzzle."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import moderation
from accounts.guests import create_guest
from accounts.models import ApiToken
from games import days, services
from games.engine import GameCode, Move, public_form, read_private
from games.models import DailyDeal
from games.models import Game as StoredGame
from games.puzzles.models import DailyPuzzle, Puzzle, PuzzleAttempt, PuzzleCard, PuzzlePlayer
from tests.support.play import token_client
from tests.support.puzzles import hidden_cards, pinned_positions, seeded, stored_puzzle
from tests.support.secrecy import strings

pytestmark = pytest.mark.django_db


def attempt(client: APIClient, puzzle: Puzzle, moves: list[str]) -> Any:
    return client.post(f"/api/v1/puzzles/{puzzle.pk}/attempts", {"moves": moves}, format="json")


def answer(client: APIClient, puzzle: Puzzle, moves: list[str]) -> dict[str, Any]:
    response = attempt(client, puzzle, moves)
    assert response.status_code == 200, response.content
    return dict(response.json())


def wrong_move(puzzle: Puzzle) -> str:
    board = read_private(puzzle.position)
    return next(str(move) for move in board.legal_moves if str(move) != puzzle.solution[0])


def error_code(response: Any) -> str:
    return str(response.json()["error"]["code"])


# ---- the daily puzzle ---------------------------------------------------------------------


def test_the_daily_puzzle_is_the_same_for_everybody_and_kept_for_the_day(
    alice_api: APIClient, bob_api: APIClient
) -> None:
    seeded(3, plausible=3)
    anonymous = APIClient().get("/api/v1/puzzles/daily")
    assert anonymous.status_code == 200
    assert anonymous.json()["me"] is None
    chosen = anonymous.json()["puzzle"]["id"]
    seeded_later = stored_puzzle(pinned_positions()[5])
    for client in (alice_api, bob_api):
        body = client.get("/api/v1/puzzles/daily").json()
        assert body["puzzle"]["id"] == chosen != seeded_later.pk
        assert body["date"] == days.today().isoformat()
        assert body["me"]["rating"] == 0.0
    assert DailyPuzzle.objects.get(date=days.today()).puzzle_id == chosen


def test_the_daily_puzzle_shows_the_least_hidden_position(alice_api: APIClient) -> None:
    puzzles = seeded(3, plausible=3)
    fewest = min(puzzle.face_down for puzzle in puzzles)
    chosen = alice_api.get("/api/v1/puzzles/daily").json()["puzzle"]["id"]
    assert Puzzle.objects.get(pk=chosen).face_down == fewest


def test_a_coin_flip_is_never_the_daily_puzzle(alice_api: APIClient) -> None:
    """Issue 37: the daily puzzle had two legal moves. One with fewer than three plausible
    moves stays in the deck of new puzzles, never a day's puzzle."""
    (two,) = seeded(1, steps=1)
    assert (two.legal_moves, two.plausible_moves) == (2, 2)
    assert error_code(alice_api.get("/api/v1/puzzles/daily")) == "no-daily-puzzle"
    assert alice_api.get("/api/v1/puzzles/next").json()["puzzle"]["id"] == two.pk
    (three,) = seeded(1, steps=1, plausible=3)
    assert alice_api.get("/api/v1/puzzles/daily").json()["puzzle"]["id"] == three.pk


def test_there_is_no_daily_puzzle_while_the_pool_is_empty(alice_api: APIClient) -> None:
    response = alice_api.get("/api/v1/puzzles/daily")
    assert response.status_code == 404
    assert error_code(response) == "no-daily-puzzle"


def test_a_new_day_takes_a_puzzle_never_used(alice_api: APIClient) -> None:
    first, second = seeded(2, plausible=3)
    yesterday = days.today() - timedelta(days=1)
    DailyPuzzle.objects.create(date=yesterday, puzzle=first)
    assert alice_api.get("/api/v1/puzzles/daily").json()["puzzle"]["id"] == second.pk


# ---- answering ----------------------------------------------------------------------------


def test_the_right_answer_solves_the_puzzle_rates_it_and_starts_the_streaks(
    alice: User, alice_api: APIClient
) -> None:
    (puzzle,) = seeded(1, steps=1, plausible=3)
    alice_api.get("/api/v1/puzzles/daily")
    body = answer(alice_api, puzzle, puzzle.solution)
    assert body["outcome"] == "solved"
    assert body["correct"] is True
    assert body["solution"] == puzzle.solution
    assert body["rated"] is True
    assert body["rating_before"] == 0.0
    assert body["rating_after"] > 0.0
    assert body["puzzle_rating"] < puzzle.rating
    assert body["streak"] == 1
    assert body["daily_streak"] == 1
    assert body["card"] is None  # a puzzle solved does not join the deck
    stats = PuzzlePlayer.objects.get(player=alice)
    assert (stats.attempts, stats.solved, stats.last_daily) == (1, 1, days.today())
    attempt_row = PuzzleAttempt.objects.get(player=alice)
    assert attempt_row.daily_date == days.today()
    again = alice_api.get(f"/api/v1/puzzles/{puzzle.pk}").json()
    assert again["puzzle"]["answered"] == {"correct": True, "solution": puzzle.solution}
    assert again["me"]["solved"] == 1


def test_a_wrong_move_is_an_answer_with_the_solution_and_puts_the_puzzle_in_the_deck(
    alice: User, alice_api: APIClient
) -> None:
    (puzzle,) = seeded(1, steps=1)
    body = answer(alice_api, puzzle, [wrong_move(puzzle)])
    assert body["outcome"] == "wrong-move"
    assert body["correct"] is False
    assert body["step"] == 0
    assert body["solution"] == puzzle.solution
    assert body["board"] is None
    assert "loses" in body["message"]
    assert body["rating_after"] < body["rating_before"] == 0.0
    assert body["puzzle_rating"] > puzzle.rating
    assert body["streak"] == 0
    card = PuzzleCard.objects.get(player=alice, puzzle=puzzle)
    assert (card.box, card.own, card.lapses) == (1, False, 1)
    assert timezone.now() + timedelta(hours=23) < card.due_at
    assert body["card"]["box"] == 1


def test_a_guests_answers_move_no_rating(alice_api: APIClient) -> None:
    """Issue 35: eight throwaway guests missing a puzzle raised its rating from -0.94 to
    16.37. A guest's answers are practice: the puzzle's rating and theirs stay."""
    (puzzle,) = seeded(1)
    for _ in range(2):
        guest = token_client(create_guest())
        missed = answer(guest, puzzle, [wrong_move(puzzle)])
        assert (missed["outcome"], missed["rated"], missed["rating_after"]) == (
            "wrong-move",
            False,
            None,
        )
        assert missed["puzzle_rating"] == puzzle.rating
        assert guest.get(f"/api/v1/puzzles/{puzzle.pk}").json()["me"]["rating"] == 0.0
    again = Puzzle.objects.get(pk=puzzle.pk)
    assert (again.rating, again.mu, again.attempts) == (puzzle.rating, puzzle.mu, 0)
    assert not PuzzleAttempt.objects.filter(rated=True).exists()
    assert answer(alice_api, puzzle, puzzle.solution)["rated"] is True


def test_a_marked_players_answers_move_no_rating(
    alice: User, bob: User, alice_api: APIClient
) -> None:
    """A marked account leaves every rating (docs/fair-play.md, "Moderation"): its answers
    are practice, as a guest's, so it moves neither the puzzle's rating nor its own."""
    (puzzle,) = seeded(1)
    bob.is_staff = True
    moderation.mark(alice, by=bob, reason="farming puzzles")
    missed = answer(alice_api, puzzle, [wrong_move(puzzle)])
    assert (missed["rated"], missed["rating_after"]) == (False, None)
    again = Puzzle.objects.get(pk=puzzle.pk)
    assert (again.rating, again.mu, again.attempts) == (puzzle.rating, puzzle.mu, 0)


def test_a_puzzles_rating_comes_with_what_it_means(alice_api: APIClient) -> None:
    """Issue 37: ratings sat near zero with no word of what they mean. A puzzle says how often
    a new player solves it, and a band for that: the number alone is cautious (mu - 3 sigma)
    and rises as the rating grows surer."""
    (puzzle,) = seeded(1)
    seen = []
    for mu, sigma in ((19.0, 8.333), (25.0, 8.333), (25.0, 3.0), (31.0, 8.333), (40.0, 3.0)):
        Puzzle.objects.filter(pk=puzzle.pk).update(mu=mu, sigma=sigma, rating=mu - 3 * sigma)
        body = alice_api.get(f"/api/v1/puzzles/{puzzle.pk}").json()["puzzle"]
        seen.append((round(body["rating"]), body["band"], body["solve_chance"]))
    assert seen == [
        (-6, "easy", 0.68),
        (0, "medium", 0.5),
        (16, "medium", 0.5),  # tried by many: a higher number, the same puzzle
        (6, "hard", 0.32),
        (31, "very-hard", 0.08),
    ]


def test_only_the_first_decided_attempt_is_rated(alice: User, alice_api: APIClient) -> None:
    (puzzle,) = seeded(1)
    first = answer(alice_api, puzzle, [wrong_move(puzzle)])
    second = answer(alice_api, puzzle, puzzle.solution)
    assert first["rated"] is True
    assert second["outcome"] == "solved"
    assert (second["rated"], second["rating_before"], second["rating_after"]) == (False, None, None)
    assert second["streak"] == 0
    assert PuzzlePlayer.objects.get(player=alice).attempts == 1
    assert Puzzle.objects.get(pk=puzzle.pk).attempts == 1
    assert PuzzleAttempt.objects.filter(player=alice).count() == 2


def test_a_longer_answer_goes_on_move_by_move_showing_only_cards_already_seen(
    alice_api: APIClient,
) -> None:
    (puzzle,) = seeded(1, steps=2)
    start = read_private(puzzle.position)
    first = answer(alice_api, puzzle, puzzle.solution[:1])
    assert first["outcome"] == "continue"
    assert (first["correct"], first["step"], first["moves_to_find"]) == (True, 1, 2)
    assert first["solution"] is None
    assert first["streak"] is None  # nothing decided yet, nothing stored
    assert not PuzzleAttempt.objects.exists()
    shown = {card for column in first["board"]["columns"] for card in column["face_up"]}
    seen = {str(card) for column in start.columns for card in column.face_up}
    assert shown <= seen | {f["top"] for f in public_form(start)["foundations"] if f["top"]}
    assert puzzle.solution[1] in first["board"]["legal_moves"]
    done = answer(alice_api, puzzle, puzzle.solution)
    assert done["outcome"] == "solved"
    assert done["rated"] is True


def test_a_wrong_second_move_is_a_wrong_move_at_step_one(alice_api: APIClient) -> None:
    (puzzle,) = seeded(1, steps=2)
    board = read_private(puzzle.position)
    board.play(Move.parse(puzzle.solution[0]))
    other = next(str(m) for m in board.legal_moves if str(m) != puzzle.solution[1])
    body = answer(alice_api, puzzle, [puzzle.solution[0], other])
    assert (body["outcome"], body["step"]) == ("wrong-move", 1)
    assert body["solution"] == puzzle.solution


def test_an_illegal_move_is_refused_by_the_rule_and_decides_nothing(
    alice_api: APIClient,
) -> None:
    (puzzle,) = seeded(1)
    board = read_private(puzzle.position)
    top = board.columns[0].face_up[-1]
    illegal = next(
        f"{top}>{column}"
        for column in range(1, 8)
        if f"{top}>{column}" not in {str(move) for move in board.legal_moves}
    )
    response = attempt(alice_api, puzzle, [illegal])
    assert response.status_code == 422
    assert not PuzzleAttempt.objects.exists()


def test_notation_that_does_not_parse_is_a_400(alice_api: APIClient) -> None:
    (puzzle,) = seeded(1)
    response = attempt(alice_api, puzzle, ["7D-3"])
    assert response.status_code == 400
    assert error_code(response) == "invalid-move"
    assert error_code(attempt(alice_api, puzzle, [])) == "invalid-request"


def test_an_answer_longer_than_the_puzzle_is_refused(alice_api: APIClient) -> None:
    (puzzle,) = seeded(1, steps=1)
    response = attempt(alice_api, puzzle, [*puzzle.solution, puzzle.solution[0]])
    assert response.status_code == 400
    assert error_code(response) == "puzzle-too-many-moves"


def test_an_unknown_puzzle_is_not_found(alice_api: APIClient) -> None:
    for response in (
        alice_api.get("/api/v1/puzzles/999999"),
        attempt(alice_api, Puzzle(pk=999999), ["KS>1"]),
    ):
        assert response.status_code == 404
        assert error_code(response) == "puzzle-not-found"


def test_answering_needs_game_play_and_next_needs_a_player(alice: User) -> None:
    (puzzle,) = seeded(1)
    _, raw = ApiToken.issue(alice, "reader", ["game:read"])
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert reader.get(f"/api/v1/puzzles/{puzzle.pk}").status_code == 200
    refused = attempt(reader, puzzle, puzzle.solution)
    assert refused.status_code == 403
    assert refused.json()["error"]["scope"] == "game:play"
    assert APIClient().get("/api/v1/puzzles/next").status_code == 401
    assert attempt(APIClient(), puzzle, puzzle.solution).status_code == 401


# ---- streaks ------------------------------------------------------------------------------


def test_the_daily_streak_grows_day_after_day_and_a_missed_day_ends_it(
    alice: User, alice_api: APIClient
) -> None:
    (puzzle,) = seeded(1, plausible=3)
    alice_api.get("/api/v1/puzzles/daily")
    yesterday = days.today() - timedelta(days=1)
    PuzzlePlayer.objects.create(
        player=alice, mu=25.0, sigma=8.0, rating=1.0, daily_streak=3, last_daily=yesterday
    )
    assert alice_api.get("/api/v1/puzzles/daily").json()["me"]["daily_streak"] == 3
    assert answer(alice_api, puzzle, puzzle.solution)["daily_streak"] == 4
    stats = PuzzlePlayer.objects.get(player=alice)
    assert stats.best_daily_streak == 4
    PuzzlePlayer.objects.filter(player=alice).update(last_daily=yesterday - timedelta(days=1))
    assert alice_api.get("/api/v1/puzzles/daily").json()["me"]["daily_streak"] == 0


def test_the_streak_counts_rated_answers_solved_in_a_row(alice_api: APIClient) -> None:
    puzzles = seeded(3)
    assert answer(alice_api, puzzles[0], puzzles[0].solution)["streak"] == 1
    assert answer(alice_api, puzzles[1], puzzles[1].solution)["streak"] == 2
    assert answer(alice_api, puzzles[2], [wrong_move(puzzles[2])])["streak"] == 0
    me = alice_api.get("/api/v1/puzzles/next").json()["me"]
    assert (me["streak"], me["best_streak"], me["attempts"], me["solved"]) == (0, 2, 3, 2)


# ---- the deck -----------------------------------------------------------------------------


def test_next_serves_your_own_turning_points_first_then_due_cards_then_new_puzzles(
    alice: User, alice_api: APIClient
) -> None:
    missed, own, fresh = seeded(3)
    PuzzleCard.objects.create(player=alice, puzzle=missed, own=False, due_at=timezone.now())
    PuzzleCard.objects.create(
        player=alice, puzzle=own, own=True, due_at=timezone.now() - timedelta(seconds=1)
    )
    served = []
    for _ in range(3):
        body = alice_api.get("/api/v1/puzzles/next").json()
        served.append((body["puzzle"]["id"], body["reason"]))
        puzzle = Puzzle.objects.get(pk=body["puzzle"]["id"])
        answer(alice_api, puzzle, puzzle.solution)
    assert served == [(own.pk, "due"), (missed.pk, "due"), (fresh.pk, "new")]
    body = alice_api.get("/api/v1/puzzles/next").json()
    assert body["puzzle"] is None and body["reason"] is None
    assert body["me"]["deck"] == 2 and body["me"]["due"] == 0
    assert body["me"]["next_due_at"] is not None


def test_new_puzzles_come_nearest_your_rating(alice: User, alice_api: APIClient) -> None:
    easy, hard = seeded(2)
    Puzzle.objects.filter(pk=easy.pk).update(rating=-6.0)
    Puzzle.objects.filter(pk=hard.pk).update(rating=6.0)
    PuzzlePlayer.objects.create(player=alice, mu=30.0, sigma=6.0, rating=5.0)
    assert alice_api.get("/api/v1/puzzles/next").json()["puzzle"]["id"] == hard.pk


def test_a_due_card_moves_up_a_box_when_right_and_back_to_the_first_when_wrong(
    alice: User, alice_api: APIClient
) -> None:
    (puzzle,) = seeded(1)
    card = PuzzleCard.objects.create(player=alice, puzzle=puzzle, own=True, box=2)
    body = answer(alice_api, puzzle, puzzle.solution)
    card.refresh_from_db()
    assert (card.box, body["card"]["box"], card.reviews) == (3, 3, 1)
    assert card.due_at > timezone.now() + timedelta(days=6)
    early = answer(alice_api, puzzle, [wrong_move(puzzle)])  # not due: the schedule stays
    assert early["card"]["box"] == 3
    PuzzleCard.objects.filter(pk=card.pk).update(due_at=timezone.now())
    answer(alice_api, puzzle, [wrong_move(puzzle)])
    card.refresh_from_db()
    assert (card.box, card.lapses) == (1, 1)
    assert timezone.now() + timedelta(hours=23) < card.due_at < timezone.now() + timedelta(days=2)


# ---- who may see a puzzle -----------------------------------------------------------------


def game_puzzles(owner: User) -> tuple[Puzzle, Puzzle]:
    """Two puzzles of one of `owner`'s games: its own position and one along the way to win."""
    game = services.start_game(owner)
    first, second = pinned_positions()[:2]
    return (
        stored_puzzle(first, game=game, version=0, line_step=0),
        stored_puzzle(second, game=game, version=0, line_step=3),
    )


def test_a_running_dailys_puzzles_are_its_owners_own_positions_alone(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    own, along = game_puzzles(alice)
    own.game.daily_date = days.today()  # type: ignore[union-attr]
    own.game.save(update_fields=["daily_date"])  # type: ignore[union-attr]
    assert alice_api.get(f"/api/v1/puzzles/{own.pk}").status_code == 200
    assert error_code(alice_api.get(f"/api/v1/puzzles/{along.pk}")) == "puzzle-not-found"
    for puzzle in (own, along):
        response = bob_api.get(f"/api/v1/puzzles/{puzzle.pk}")
        assert response.status_code == 404
        assert error_code(attempt(bob_api, puzzle, puzzle.solution)) == "puzzle-not-found"
    assert error_code(bob_api.get("/api/v1/puzzles/daily")) == "no-daily-puzzle"
    assert bob_api.get("/api/v1/puzzles/next").json()["puzzle"] is None
    # Once the day has closed, both are its owner's, and still nobody else's.
    own.game.daily_date = days.today() - timedelta(days=1)  # type: ignore[union-attr]
    own.game.save(update_fields=["daily_date"])  # type: ignore[union-attr]
    for puzzle in (own, along):
        assert alice_api.get(f"/api/v1/puzzles/{puzzle.pk}").status_code == 200
        assert error_code(bob_api.get(f"/api/v1/puzzles/{puzzle.pk}")) == "puzzle-not-found"


def test_a_running_races_puzzles_are_nobodys_until_it_ends(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    own, along = game_puzzles(alice)
    own.game.race_hidden = True  # type: ignore[union-attr]
    own.game.save(update_fields=["race_hidden"])  # type: ignore[union-attr]
    for client in (alice_api, bob_api):
        for puzzle in (own, along):
            assert error_code(client.get(f"/api/v1/puzzles/{puzzle.pk}")) == "puzzle-not-found"
    PuzzleCard.objects.create(player=alice, puzzle=own, own=True)
    assert alice_api.get("/api/v1/puzzles/next").json()["puzzle"] is None
    own.game.race_hidden = False  # type: ignore[union-attr]
    own.game.save(update_fields=["race_hidden"])  # type: ignore[union-attr]
    body = alice_api.get("/api/v1/puzzles/next").json()
    assert (body["puzzle"]["id"], body["puzzle"]["yours"]) == (own.pk, True)


def test_a_puzzle_of_a_deal_whose_ranked_attempt_is_in_play_waits_for_that_attempt(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    """A practice attempt of today's daily, lost while the ranked one is still played: its
    puzzle is the solver's help on the deal, held back as its analysis is
    (games.fairness.solver_help)."""
    ranked = services.start_game(alice)
    practice = services.start_game(alice, code=ranked.code)  # dealt before it was the daily
    DailyDeal.objects.create(
        date=days.today(),
        number=GameCode.parse(ranked.code).number,
        candidate=0,
        verdict="winnable",
    )
    StoredGame.objects.filter(pk=ranked.pk).update(daily_date=days.today(), ranked=True)
    StoredGame.objects.filter(pk=practice.pk).update(
        daily_date=days.today(), status=StoredGame.Status.ABANDONED
    )
    practice.refresh_from_db()
    puzzle = stored_puzzle(pinned_positions()[0], game=practice, version=0, line_step=0)
    PuzzleCard.objects.create(player=alice, puzzle=puzzle, own=True)
    assert error_code(alice_api.get(f"/api/v1/puzzles/{puzzle.pk}")) == "puzzle-not-found"
    assert alice_api.get("/api/v1/puzzles/next").json()["puzzle"] is None
    StoredGame.objects.filter(pk=ranked.pk).update(status=StoredGame.Status.ABANDONED)
    assert alice_api.get(f"/api/v1/puzzles/{puzzle.pk}").status_code == 200
    assert alice_api.get("/api/v1/puzzles/next").json()["puzzle"]["id"] == puzzle.pk
    assert error_code(bob_api.get(f"/api/v1/puzzles/{puzzle.pk}")) == "puzzle-not-found"


def test_a_puzzles_answers_never_name_a_face_down_card_nor_a_code(
    alice_api: APIClient,
) -> None:
    puzzles = [*seeded(4, steps=1), *seeded(1, steps=2, plausible=3)]

    def check(body: dict[str, Any], shown: int) -> None:
        hidden = hidden_cards(Puzzle.objects.get(pk=shown))
        assert hidden, "each pinned position hides cards"
        said = set(strings(body))
        assert not said & hidden, (shown, said & hidden)
        assert not any(text.startswith("YU1-") for text in said)

    daily = alice_api.get("/api/v1/puzzles/daily").json()
    check(daily, daily["puzzle"]["id"])
    for puzzle in puzzles:
        for body in (
            alice_api.get(f"/api/v1/puzzles/{puzzle.pk}").json(),
            answer(alice_api, puzzle, puzzle.solution[:1]),
            answer(alice_api, puzzle, [wrong_move(puzzle)]),
            answer(alice_api, puzzle, puzzle.solution),
        ):
            check(body, puzzle.pk)
        PuzzleCard.objects.filter(puzzle=puzzle).update(due_at=timezone.now())
        served = alice_api.get("/api/v1/puzzles/next").json()
        check(served, served["puzzle"]["id"])


def test_puzzle_reads_work_through_token_scopes_as_documented(alice: User) -> None:
    seeded(1, plausible=3)
    client = token_client(alice)
    assert client.get("/api/v1/puzzles/daily").status_code == 200
    assert client.get("/api/v1/puzzles/next").status_code == 200
