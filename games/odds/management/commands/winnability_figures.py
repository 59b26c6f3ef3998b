"""`manage.py winnability_figures [--json] [--memory 3]`: the published sample's figures.

Per rule: deals measured, won / lost / undecided, the published range and the rate over
decided deals (Wilson 95%), the CPU time the sample took, nodes per deal, the grades with
the distribution their thresholds come from, and the peak memory of one solve: the deals
of the rule that entered the most positions solved again under `tracemalloc` (the search's
memory grows with the positions it keeps; tracing runs the search several times slower, so
only these). The load average at the start and the end; `--json` ends with one JSON line.
"""

from __future__ import annotations

import json
import os
import statistics
import time
import tracemalloc
from dataclasses import asdict
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db.models import F, Q

from games.analysis.models import Verdict
from games.engine import DEV_DEAL_KEY, RULES, Game, GameCode, Rule
from games.engine.solver import solve
from games.engine.solver_stats import percentile
from games.odds import grades
from games.odds.measures import NODE_BUDGET
from games.odds.summary import rule_odds, sample

#: Smaller budgets whose undecided share the sample tells (see `rule_figures`).
SMALLER_BUDGETS = (50_000, 100_000, 200_000)


def peak_memory_mb(rule: Rule, numbers: list[int], node_budget: int) -> float | None:
    """The largest `tracemalloc` peak of one solve of these deals (development key), in MB."""
    peaks = []
    for number in numbers:
        game = Game.new(GameCode(rule, number), DEV_DEAL_KEY)
        tracemalloc.start()
        try:
            solve(game, node_budget=node_budget)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    return round(max(peaks) / 1e6, 1) if peaks else None


def rule_figures(rule: Rule, node_budget: int, memory_deals: int) -> dict[str, Any]:
    """One rule's figures: the odds, the effort, the grades' distribution, the memory."""
    rows = sample(rule, node_budget)
    won = rows.filter(verdict=Verdict.WINNABLE)
    nodes = [float(n) for n in rows.values_list("nodes", flat=True)]
    won_nodes = [float(n) for n in won.values_list("nodes", flat=True)]
    seconds = [s for s in rows.values_list("cpu_seconds", flat=True)]
    biggest = list(rows.order_by("-nodes", "number").values_list("number", flat=True))
    openings = won.exclude(openings=None)
    figures: dict[str, Any] = asdict(rule_odds(rule, node_budget))
    measured = [
        (nodes, count, winning)
        for nodes, count, winning in openings.values_list("nodes", "openings", "winning_openings")
        if count is not None and winning is not None
    ]
    smaller = [b for b in SMALLER_BUDGETS if b < node_budget]
    figures.update(
        # The search is deterministic: a deal decided in n positions is decided the same way
        # under any budget of at least n, and undecided under a smaller one.
        undecided_at={
            str(b): round(
                rows.filter(Q(verdict=Verdict.UNKNOWN) | Q(nodes__gt=b)).count() / len(nodes), 4
            )
            for b in smaller
        }
        if nodes
        else {},
        thresholds=asdict(grades.THRESHOLDS[rule.letter]),
        fitted_thresholds=asdict(grades.fit(measured)) if measured else None,
        nodes={
            "median": int(percentile(nodes, 0.5)) if nodes else None,
            "p90": int(percentile(nodes, 0.9)) if nodes else None,
            "max": int(max(nodes)) if nodes else None,
        },
        winnable_nodes_terciles=(
            [int(percentile(won_nodes, 1 / 3)), int(percentile(won_nodes, 2 / 3))]
            if won_nodes
            else None
        ),
        every_opening_wins=openings.filter(winning_openings=F("openings")).count(),
        most_openings_unproven=openings.filter(openings__gt=F("winning_openings") * 2).count(),
        cpu_seconds_per_deal=round(statistics.fmean(seconds), 3) if seconds else None,
        peak_memory_mb=peak_memory_mb(rule, biggest[:memory_deals], node_budget),
        peak_memory_deals=len(biggest[:memory_deals]),
    )
    return figures


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _span(interval: dict[str, float] | None) -> str:
    return "-" if interval is None else f"{_pct(interval['low'])} - {_pct(interval['high'])}"


def _limits(thresholds: dict[str, int] | None) -> str:
    return "-" if thresholds is None else f"{thresholds['easy_nodes']} / {thresholds['hard_nodes']}"


def render(figures: dict[str, Any]) -> str:
    """A readable table of the figures."""
    odds_head = (
        f"{'rule':<5}{'deals':>7}{'won':>7}{'lost':>7}{'undecided':>11}  {'range (95%)':<17}"
        f"{'decided':>8} {'(95%)':<17}{'CPU s':>8}{'s/deal':>8}{'peak MB':>9}"
    )
    grade_head = (
        f"{'rule':<5}{'nodes med / p90 / max':<28}{'won: terciles':<16}{'easy / medium / hard':<22}"
        f"{'thresholds':<16}{'fitted':<16}every / under half openings win"
    )
    odds_lines, grade_lines = [odds_head], [grade_head]
    for rule in figures["rules"]:
        odds_lines.append(
            f"{rule['rule']:<5}{rule['deals']:>7}{rule['winnable']:>7}{rule['unwinnable']:>7}"
            f"{_pct(rule['undecided_share']):>11}  {_span(rule['range95']):<17}"
            f"{_pct(rule['decided_rate']):>8} {_span(rule['decided_rate95']):<17}"
            f"{rule['cpu_seconds']:>8.0f}{rule['cpu_seconds_per_deal'] or 0:>8.3f}"
            f"{rule['peak_memory_mb'] or 0:>9.1f}"
        )
        nodes, grades_, limits = rule["nodes"], rule["grades"], rule["thresholds"]
        terciles = rule["winnable_nodes_terciles"] or ["-", "-"]
        spread = f"{nodes['median']} / {nodes['p90']} / {nodes['max']}"
        split = f"{grades_['easy']} / {grades_['medium']} / {grades_['hard']}"
        grade_lines.append(
            f"{rule['rule']:<5}{spread:<28}{f'{terciles[0]} / {terciles[1]}':<16}{split:<22}"
            f"{_limits(limits):<16}"
            f"{_limits(rule['fitted_thresholds']):<16}"
            f"{rule['every_opening_wins']} / {rule['most_openings_unproven']}"
        )
    smaller = [
        f"{rule['rule']}: "
        + ", ".join(f"{_pct(share)} at {int(b):,}" for b, share in rule["undecided_at"].items())
        for rule in figures["rules"]
        if rule["undecided_at"]
    ]
    start, end = figures["load_average_start"], figures["load_average_end"]
    return "\n".join(
        [
            f"published sample (development key), {figures['node_budget']:,} positions per deal",
            "",
            *odds_lines,
            "",
            *grade_lines,
            "",
            "undecided under a smaller budget (the search is deterministic):",
            *smaller,
            "",
            "peak MB: the largest tracemalloc peak of one solve among the rule's "
            f"{figures['peak_memory_deals']} deals with the most positions",
            f"load average (1, 5, 15 min) {' '.join(f'{x:.2f}' for x in start)} at the start, "
            f"{' '.join(f'{x:.2f}' for x in end)} at the end; {figures['wall_seconds']} s",
        ]
    )


class Command(BaseCommand):
    help = "Print the published winnability sample's figures (docs/solver.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="end with one JSON line")
        parser.add_argument(
            "--memory",
            type=int,
            default=3,
            help="deals per rule solved again to measure memory: those with the most positions",
        )
        parser.add_argument("--nodes", type=int, default=NODE_BUDGET, help="the sample's budget")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        load_start = [round(x, 2) for x in os.getloadavg()]
        rules = [rule_figures(rule, options["nodes"], options["memory"]) for rule in RULES.values()]
        figures = {
            "node_budget": options["nodes"],
            "rules": rules,
            "peak_memory_deals": options["memory"],
            "load_average_start": load_start,
            "load_average_end": [round(x, 2) for x in os.getloadavg()],
            "wall_seconds": round(time.perf_counter() - started, 1),
        }
        self.stdout.write(render(figures))
        if options["json"]:
            self.stdout.write(json.dumps(figures, sort_keys=True))
