"""The solver's help: hints, winnability, a game's analysis, a closed day's line."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.games import ColumnSerializer, FoundationSerializer, ReplayStepSerializer

WINNABILITY_STATUSES = ["winnable", "no-longer-winnable", "unknown"]


class WinnabilitySerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="The game version the answer is about.")
    status = serializers.ChoiceField(choices=WINNABILITY_STATUSES)
    reason = serializers.CharField(
        allow_null=True, help_text="Why unknown: time-budget (or memory-budget)."
    )
    nodes = serializers.IntegerField()
    seconds = serializers.FloatField()
    proven = serializers.BooleanField(
        help_text="False: the solver could not decide in its budget; a longer search goes on "
        "and a proven answer is pushed when it finds one."
    )


class HintSerializer(WinnabilitySerializer):
    move = serializers.CharField(
        allow_null=True,
        help_text="Next move of a winning line; with status unknown, the search's best guess "
        "(proven false). Null only when no longer winnable (or no move is left).",
    )


class AssistPendingSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="The game version the solve is for.")
    status = serializers.ChoiceField(choices=["pending"])
    push = serializers.ChoiceField(
        choices=["hint", "winnability"],
        help_text="The message type that brings the answer on the game's feed (owner only).",
    )
    feed = serializers.CharField(help_text="The websocket path of the game's feed.")


class PositionVerdictSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="0: the deal; v: after the log entry of v.")
    verdict = serializers.ChoiceField(choices=["winnable", "unwinnable", "unknown"])
    reason = serializers.CharField(allow_null=True, help_text="Unknown: the budget that ran out.")


class AnalysisBoardSerializer(serializers.Serializer[Any]):
    columns = ColumnSerializer(many=True)
    foundations = FoundationSerializer(many=True)
    score = serializers.IntegerField()
    move_count = serializers.IntegerField()


class LosingMoveSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="The log entry after which it was lost.")
    move = serializers.CharField()
    better_move = serializers.CharField(help_text="A move there that kept the game winnable.")
    better_board = AnalysisBoardSerializer(
        help_text="The board after the better move (a card it turns up stays face down)."
    )


class TurningPointSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(
        help_text="The version the losing move made: the position before it (version - 1) "
        "was the last winnable one."
    )
    move = serializers.CharField(help_text="The losing move.")
    line = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="A winning line from the position before the losing move (no position "
        "twice); null while the deal is secret (today's daily, a running race).",
    )
    steps = ReplayStepSerializer(
        many=True,
        allow_null=True,
        help_text="The public board after each move of the line (null when the line is).",
    )


class AnalysisSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=["not-finished", "pending", "partial", "done"],
        help_text="not-finished: the game is still being played.",
    )
    last_version = serializers.IntegerField(help_text="The log's last version.")
    node_budget = serializers.IntegerField(help_text="Solver positions allowed per position.")
    verdicts = PositionVerdictSerializer(many=True)
    losing_move = LosingMoveSerializer(allow_null=True)
    turning = serializers.ChoiceField(
        choices=["pending", "lost", "never-winnable", "not-lost", "unknown"],
        help_text="Where the win was lost: `lost` (see turning_point), `never-winnable` (the "
        "deal never could be won), `not-lost` (won, or still winnable at the end), `unknown` "
        "(the solver's budget could not tell), `pending` (still searching).",
    )
    turning_point = TurningPointSerializer(allow_null=True)
    shortest_line = serializers.IntegerField(
        allow_null=True, help_text="Moves of the shortest win the solver found from the deal."
    )
    extra_moves = serializers.IntegerField(
        allow_null=True, help_text="A won game: how many moves longer than that line."
    )


class DealLineSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=["pending", "done"])
    verdict = serializers.CharField(allow_null=True)
    moves = serializers.ListField(child=serializers.CharField())
    steps = ReplayStepSerializer(many=True)
