"""`manage.py solve CODE`: the solver's verdict on a deal, its winning line, nodes and time."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import deals
from games.engine import GameCode, YukonError
from games.engine.solver import solve


class Command(BaseCommand):
    help = "Solve a deal given by its code (with this deployment's deal key)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("code", help="a game code such as YU1-C-AAAAAAB")
        parser.add_argument("--seconds", type=float, default=None, help="time budget")
        parser.add_argument("--nodes", type=int, default=None, help="node budget")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            code = GameCode.parse(options["code"])
        except YukonError as error:
            raise CommandError(f"{error.code}: {error.message}") from None
        game = deals.new_game(code)
        result = solve(game, node_budget=options["nodes"], time_budget=options["seconds"])
        self.stdout.write(f"code:    {code}")
        self.stdout.write(f"verdict: {result.verdict}")
        if result.reason:
            self.stdout.write(f"reason:  {result.reason}")
        self.stdout.write(f"nodes:   {result.nodes}")
        self.stdout.write(f"seconds: {result.seconds:.3f}")
        if result.line:
            self.stdout.write(f"line ({len(result.line)} moves): {' '.join(map(str, result.line))}")
