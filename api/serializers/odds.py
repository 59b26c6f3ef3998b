"""The odds of Yukon: each rule's published win rate, and the query of its per-deal CSV."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.common import RULE_LETTERS


class IntervalSerializer(serializers.Serializer[Any]):
    low = serializers.FloatField()
    high = serializers.FloatField()


class GradeCountsSerializer(serializers.Serializer[Any]):
    easy = serializers.IntegerField()
    medium = serializers.IntegerField()
    hard = serializers.IntegerField()


class RuleOddsSerializer(serializers.Serializer[Any]):
    rule = serializers.ChoiceField(choices=RULE_LETTERS)
    deals = serializers.IntegerField(help_text="Deals of the sample measured so far.")
    winnable = serializers.IntegerField(help_text="Proven winnable (a winning line was found).")
    unwinnable = serializers.IntegerField(help_text="Proven lost (the search was exhaustive).")
    unknown = serializers.IntegerField(help_text="Undecided: the node budget ran out first.")
    undecided_share = serializers.FloatField(allow_null=True, help_text="unknown / deals.")
    bounds = IntervalSerializer(
        allow_null=True,
        help_text="winnable / deals (every undecided deal lost) and (winnable + unknown) / "
        "deals (every one won): the true share lies between them.",
    )
    range95 = IntervalSerializer(
        allow_null=True,
        help_text="The published range: the Wilson 95% interval's low end of the first bound "
        "and high end of the second.",
    )
    decided_rate = serializers.FloatField(
        allow_null=True,
        help_text="winnable / (winnable + unwinnable): right only if undecided deals are won "
        "as often as decided ones.",
    )
    decided_rate95 = IntervalSerializer(allow_null=True, help_text="Its Wilson 95% interval.")
    grades = GradeCountsSerializer(help_text="Proven-winnable deals of each difficulty grade.")
    cpu_seconds = serializers.FloatField(help_text="CPU time every solve of the sample took.")
    median_nodes = serializers.IntegerField(
        allow_null=True, help_text="The median of the positions each deal's solve entered."
    )


class OddsSerializer(serializers.Serializer[Any]):
    node_budget = serializers.IntegerField(help_text="Solver positions allowed per deal.")
    key = serializers.ChoiceField(
        choices=["development"],
        help_text="The deal key of the sample: the public development key, so every deal can "
        "be dealt and solved again.",
    )
    rules = RuleOddsSerializer(many=True)
    csv = serializers.CharField(help_text="Where the per-deal CSV is (this path, format=csv).")


class OddsQuerySerializer(serializers.Serializer[Any]):
    rule = serializers.ChoiceField(
        choices=RULE_LETTERS, required=False, help_text="One rule only (default: every rule)."
    )
    format = serializers.ChoiceField(
        choices=["json", "csv"],
        required=False,
        default="json",
        help_text="csv: one row per deal of the sample instead of the summary.",
    )
