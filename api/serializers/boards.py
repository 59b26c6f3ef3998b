"""The analysis board: opening a position, its public form, a move on it, its verdicts."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.games import ColumnSerializer, FoundationSerializer

MOVE_VERDICTS = ["keeps-win", "loses-win", "unknown"]
#: Whether every legal move of a board position is judged yet.
JUDGING_STATUSES = ["pending", "done"]


class BoardFromGameSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(
        min_value=0, help_text="The step of the game to open: its version after that entry."
    )


class BoardMoveSerializer(serializers.Serializer[Any]):
    move = serializers.CharField(max_length=16, help_text="A move in notation, e.g. 7S>F.")


class BoardPositionSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(
        help_text="The position's opaque key: share /board/<key> to show it to someone."
    )
    code = serializers.CharField(
        allow_null=True, help_text="The deal's code (null: a position no code reaches)."
    )
    rule = serializers.CharField()
    columns = ColumnSerializer(many=True)
    foundations = FoundationSerializer(many=True)
    cards_on_foundations = serializers.IntegerField()
    won = serializers.BooleanField()
    legal_moves = serializers.ListField(
        child=serializers.CharField(), help_text="Every legal move, from the engine."
    )


class MoveVerdictSerializer(serializers.Serializer[Any]):
    move = serializers.CharField()
    verdict = serializers.ChoiceField(
        choices=MOVE_VERDICTS,
        help_text="keeps-win: the position after it can be won; loses-win: it cannot; "
        "unknown: not judged yet, or the solver's budget ran out.",
    )
    judged = serializers.BooleanField(help_text="False while the move waits for its turn.")


class BoardVerdictsSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=JUDGING_STATUSES, help_text="pending: ask again; done: every move judged."
    )
    moves = MoveVerdictSerializer(many=True)
    line = serializers.ListField(
        child=serializers.CharField(),
        help_text="A winning line from the position (empty until one is found, or none).",
    )
