"""Puzzles: the puzzle as a player sees it, the player's standing, an answer and its outcome."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.common import RULE_LETTERS
from api.serializers.games import ColumnSerializer, FoundationSerializer
from games.puzzles.proof import MAX_DIFFICULTY, MAX_STEPS


class PuzzleBoardSerializer(serializers.Serializer[Any]):
    rule = serializers.ChoiceField(choices=RULE_LETTERS)
    columns = ColumnSerializer(many=True, help_text="Face-down cards only counted, as in a game.")
    foundations = FoundationSerializer(many=True)
    cards_on_foundations = serializers.IntegerField()
    legal_moves = serializers.ListField(
        child=serializers.CharField(), help_text="Every legal move: exactly one keeps the win."
    )


class PuzzleCardSerializer(serializers.Serializer[Any]):
    box = serializers.IntegerField(help_text="Leitner box, 1 to 5: higher comes back later.")
    due_at = serializers.DateTimeField(help_text="When the card is due again.")
    own = serializers.BooleanField(help_text="From your own game (a turning point).")


class PuzzleAnsweredSerializer(serializers.Serializer[Any]):
    correct = serializers.BooleanField(help_text="Your first decided attempt solved it.")
    solution = serializers.ListField(child=serializers.CharField())


class PuzzleSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    rule = serializers.ChoiceField(choices=RULE_LETTERS)
    difficulty = serializers.IntegerField(min_value=1, max_value=MAX_DIFFICULTY)
    rating = serializers.FloatField(
        help_text="The puzzle's own rating (openskill ordinal, mu - 3 sigma: the scale of "
        "players' puzzle ratings, where a new player starts at 0; it rises as the rating "
        "grows surer)."
    )
    solve_chance = serializers.FloatField(
        min_value=0, max_value=1, help_text="How often a new player solves it (0 to 1)."
    )
    band = serializers.ChoiceField(
        choices=["easy", "medium", "hard", "very-hard"],
        help_text="The word for `solve_chance`: easy (0.55 or more), medium (0.45 or more), "
        "hard (0.25 or more), very-hard.",
    )
    moves_to_find = serializers.IntegerField(
        min_value=1, max_value=MAX_STEPS, help_text="Moves of the answer."
    )
    origin = serializers.ChoiceField(
        choices=["game", "self-play"],
        help_text="`game`: one of your own games' turning points (yours alone); `self-play`: "
        "a deal of the server's own self-play, which nobody can look up.",
    )
    yours = serializers.BooleanField(help_text="Mined from one of your own games.")
    board = PuzzleBoardSerializer()
    answered = PuzzleAnsweredSerializer(
        allow_null=True, help_text="Your first decided attempt and the answer; null before."
    )
    card = PuzzleCardSerializer(allow_null=True, help_text="Its card in your deck, if any.")


class PuzzleStandingSerializer(serializers.Serializer[Any]):
    rating = serializers.FloatField(help_text="Your puzzle rating (openskill ordinal, from 0).")
    attempts = serializers.IntegerField(help_text="Rated (first) attempts.")
    solved = serializers.IntegerField()
    streak = serializers.IntegerField(help_text="Rated attempts solved in a row.")
    best_streak = serializers.IntegerField()
    daily_streak = serializers.IntegerField(help_text="Daily puzzles solved on days in a row.")
    best_daily_streak = serializers.IntegerField()
    deck = serializers.IntegerField(help_text="Cards in your deck.")
    due = serializers.IntegerField(help_text="Cards due now.")
    next_due_at = serializers.DateTimeField(allow_null=True)


class DailyPuzzleSerializer(serializers.Serializer[Any]):
    date = serializers.DateField(help_text="The UTC day.")
    puzzle = PuzzleSerializer()
    me = PuzzleStandingSerializer(allow_null=True, help_text="Null when signed out.")


class NextPuzzleSerializer(serializers.Serializer[Any]):
    puzzle = PuzzleSerializer(allow_null=True, help_text="Null when there is none for you now.")
    reason = serializers.ChoiceField(
        choices=["due", "new"],
        allow_null=True,
        help_text="`due`: a card of your deck; `new`: a puzzle you never tried, near your rating.",
    )
    me = PuzzleStandingSerializer()


class PuzzleDetailSerializer(serializers.Serializer[Any]):
    puzzle = PuzzleSerializer()
    me = PuzzleStandingSerializer(allow_null=True, help_text="Null when signed out.")


class AttemptSerializer(serializers.Serializer[Any]):
    moves = serializers.ListField(
        child=serializers.CharField(max_length=32, trim_whitespace=False),
        min_length=1,
        max_length=MAX_STEPS,
        help_text="Your answer so far, from the puzzle's position: all of it, every time.",
    )


class AttemptAnswerSerializer(serializers.Serializer[Any]):
    outcome = serializers.ChoiceField(
        choices=["solved", "continue", "wrong-move"],
        help_text="`solved`: the whole answer; `continue`: right so far, more to find (see "
        "`board`); `wrong-move`: the move at `step` loses.",
    )
    correct = serializers.BooleanField(help_text="False for `wrong-move` only.")
    message = serializers.CharField(help_text="The outcome in a sentence, in your language.")
    step = serializers.IntegerField(
        help_text="Moves that stood: for `wrong-move`, the index of the wrong one."
    )
    moves_to_find = serializers.IntegerField()
    board = PuzzleBoardSerializer(
        allow_null=True, help_text="`continue` only: the position after your moves."
    )
    solution = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="Once decided: the answer."
    )
    rated = serializers.BooleanField(
        help_text="Your first decided attempt at this public puzzle (never a guest's, nor at "
        "a puzzle from your own game)."
    )
    rating_before = serializers.FloatField(allow_null=True)
    rating_after = serializers.FloatField(allow_null=True)
    puzzle_rating = serializers.FloatField()
    streak = serializers.IntegerField(allow_null=True, help_text="Null for `continue`.")
    daily_streak = serializers.IntegerField(allow_null=True, help_text="Null for `continue`.")
    card = PuzzleCardSerializer(allow_null=True, help_text="Its card in your deck, if any.")
