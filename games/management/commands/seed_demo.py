"""`manage.py seed_demo --players 1000 --games 100000`: realistic finished games for demos.

Every seeded game is real: its move log replays from its code to its stored
snapshot (so `verify_games` passes), won games follow a solver line with a few
move-and-undo detours, abandoned games stop after a random prefix. To stay fast,
games are cut from a pool of templates (a deal plus a log) and written with
PostgreSQL COPY; the clock times (start, duration) are synthetic and differ per
game. Past days get their real daily deal, ranked first attempts and some
practice games; results and per-player statistics are folded in finishing order.
Seeded players are named `demo_...`; `--replace` removes earlier demo players first.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone

from games import daily, deals
from games.days import today as utc_today
from games.engine import DEAL_COUNT, RULES, UNDO_ENTRY, GameCode, Move, MoveResult, private_form
from games.engine.solver import solve
from games.models import Game, MoveLogEntry, PlayerStats, Result
from games.stats import fold
from ops import sql

PREFIX = "demo_"
NAMES = [
    "otter",
    "fox",
    "heron",
    "lynx",
    "wren",
    "badger",
    "marten",
    "puffin",
    "ibis",
    "stoat",
    "kestrel",
    "vole",
    "newt",
    "gecko",
    "crane",
    "finch",
    "hare",
    "mole",
    "orca",
    "raven",
    "seal",
    "tapir",
    "yak",
    "zebu",
]


def _table(model: type[Model]) -> str:
    """A model's table, quoted for SQL (from its metadata, never spelled out)."""
    return sql.quote(model._meta.db_table)


def _column(model: type[Model], field: str) -> str:
    return sql.quote_column(sql.concrete_field(model, field))


@dataclass(frozen=True)
class Template:
    """A replayable game: code, log (text, kind, score after) and the final engine state."""

    code: str
    rule: str
    log: tuple[tuple[str, str, int], ...]
    state: str
    won: bool
    moves: int
    score: int
    cards: int


def _origin(daily_date: date | None, *, ranked: bool) -> str:
    """How a seeded game came to be: a day's ranked attempt, a later one, or a fresh deal."""
    if daily_date is None:
        return Game.Origin.FRESH
    return Game.Origin.DAILY_RANKED if ranked else Game.Origin.DAILY_PRACTICE


def _kind(result: MoveResult | None) -> str:
    if result is None:
        return MoveLogEntry.Kind.UNDO
    return MoveLogEntry.Kind.TAKE_BACK if result.is_take_back else MoveLogEntry.Kind.MOVE


def _template(code: GameCode, texts: list[str]) -> Template:
    engine = deals.new_game(code)
    log = [
        (step.text, str(_kind(step.result)), step.engine.score)
        for step in deals.replay_steps(engine, texts)
    ]
    return Template(
        str(code),
        code.rule.letter,
        tuple(log),
        json.dumps(private_form(engine)),
        engine.won,
        engine.move_count,
        engine.score,
        engine.cards_on_foundations,
    )


def _with_detours(code: GameCode, line: list[str], detours: int, rng: random.Random) -> list[str]:
    """The winning line with some legal moves taken back by undo (each adds a move)."""
    engine = deals.new_game(code)
    spots = set(rng.sample(range(len(line) - 1), min(detours, len(line) - 1)))  # never at a win
    texts: list[str] = []
    for index, text in enumerate(line):
        if index in spots:
            detour = rng.choice(list(engine.legal_moves))
            texts += [str(detour), UNDO_ENTRY]
        engine.play(Move.parse(text))
        texts.append(text)
    return texts


def won_templates(code: GameCode, rng: random.Random, variants: int) -> list[Template]:
    line = solve(deals.new_game(code), node_budget=100_000).line
    texts = [str(move) for move in line]
    return [_template(code, _with_detours(code, texts, n * 3, rng)) for n in range(variants)]


def lost_templates(code: GameCode, rng: random.Random, variants: int) -> list[Template]:
    """Random play that prefers foundation moves, stopped after a random number of moves."""
    out = []
    for _ in range(variants):
        engine = deals.new_game(code)
        texts: list[str] = []
        for _ in range(rng.randint(3, 70)):
            moves = list(engine.legal_moves)
            if not moves or engine.won:
                break
            home = [m for m in moves if str(m).endswith(">F")]
            move = rng.choice(home or moves)
            engine.play(move)
            texts.append(str(move))
        if not engine.won:
            out.append(_template(code, texts))
    return out


#: How the demo's games (beside the Classic dailies) spread over the rules.
RULE_SHARES = {"C": 0.7, "R": 0.1, "U": 0.1, "A": 0.1}


def winnable_codes(rule: str, count: int, rng: random.Random) -> list[GameCode]:
    codes: list[GameCode] = []
    while len(codes) < count:
        code = GameCode(RULES[rule], rng.randrange(DEAL_COUNT))
        if solve(deals.new_game(code), node_budget=5_000).line:
            codes.append(code)
    return codes


@dataclass
class Planned:
    player: int
    template: Template
    started: datetime
    seconds: float
    assisted: bool
    daily_date: date | None = None
    ranked: bool = False


class Command(BaseCommand):
    help = "Seed demo players with realistic finished games, daily rankings and statistics."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=int, default=1000)
        parser.add_argument("--games", type=int, default=100_000)
        parser.add_argument("--days", type=int, default=30, help="Past daily deals to play.")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--replace", action="store_true", help="Remove demo players first.")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        rng = random.Random(options["seed"])
        if User.objects.filter(username__startswith=PREFIX).exists():
            if not options["replace"]:
                raise CommandError("Demo players exist already; pass --replace to reseed.")
            self._remove_demo_players()
        players = self._players(options["players"], rng)
        plan = self._plan(players, options["games"], options["days"], rng)
        self.stdout.write(f"planned {len(plan)} games in {time.perf_counter() - started:.1f} s")
        with transaction.atomic():
            self._write(plan)
        with connection.cursor() as cursor:  # fresh planner statistics for the new rows
            cursor.execute(
                f"ANALYZE {', '.join(_table(m) for m in (Game, Result, PlayerStats, User))}"
            )
        self.stdout.write(
            f"seeded {len(players)} players, {len(plan)} finished games, "
            f"{options['days']} daily deals in {time.perf_counter() - started:.1f} s"
        )

    def _remove_demo_players(self) -> None:
        demo = f"SELECT id FROM {_table(User)} WHERE username LIKE %s"
        their_games = f"SELECT id FROM {_table(Game)} WHERE {_column(Game, 'owner')} IN ({demo})"
        with connection.cursor() as cursor:
            for model, field, rows in (
                (PlayerStats, "player", demo),
                (Result, "player", demo),
                (MoveLogEntry, "game", their_games),
                (Game, "owner", demo),
            ):
                cursor.execute(
                    f"DELETE FROM {_table(model)} WHERE {_column(model, field)} IN ({rows})",
                    [PREFIX + "%"],
                )
        User.objects.filter(username__startswith=PREFIX).delete()

    def _players(self, count: int, rng: random.Random) -> list[User]:
        password = make_password("demo password")
        joined = timezone.now() - timedelta(days=400)
        users = [
            User(
                username=f"{PREFIX}{rng.choice(NAMES)}{n:04d}",
                password=password,
                date_joined=joined + timedelta(days=rng.uniform(0, 300)),
            )
            for n in range(count)
        ]
        return User.objects.bulk_create(users)

    def _plan(
        self, players: list[User], total: int, days: int, rng: random.Random
    ) -> list[Planned]:
        now = timezone.now()
        skill = {p.pk: rng.betavariate(2, 3) for p in players}  # win chance, mean 0.4
        activity = [rng.paretovariate(1.5) for _ in players]
        pools = {
            rule: (
                [t for code in winnable_codes(rule, 12, rng) for t in won_templates(code, rng, 4)],
                [
                    t
                    for _ in range(12)
                    for t in lost_templates(
                        GameCode(RULES[rule], rng.randrange(DEAL_COUNT)), rng, 4
                    )
                ],
            )
            for rule in RULES
        }
        plan: list[Planned] = []

        def game(
            player: int, pool: tuple[list[Template], list[Template]], day: datetime
        ) -> Planned:
            won = rng.random() < skill[player]
            template = rng.choice(pool[0] if won else pool[1])
            seconds = template.moves * rng.uniform(1.2, 6.0) * (1.5 - skill[player])
            return Planned(player, template, day, seconds, assisted=rng.random() < 0.03)

        today = utc_today()
        for back in range(days, 0, -1):
            day = today - timedelta(days=back)
            code = daily.code_of(daily.deal_for(day))
            pool = (won_templates(code, rng, 6), lost_templates(code, rng, 6))
            start = datetime(day.year, day.month, day.day, tzinfo=now.tzinfo)
            for player in rng.sample(players, k=int(len(players) * rng.uniform(0.2, 0.5))):
                for attempt in range(1 if rng.random() < 0.9 else 2):
                    planned = game(player.pk, pool, start + timedelta(hours=rng.uniform(0, 22)))
                    planned.daily_date, planned.ranked = day, attempt == 0
                    plan.append(planned)
        while len(plan) < total:
            player = rng.choices(players, weights=activity)[0]
            rule = rng.choices(list(RULE_SHARES), weights=list(RULE_SHARES.values()))[0]
            when = now - timedelta(days=rng.uniform(0.05, days or 30))
            plan.append(game(player.pk, pools[rule], when))
        return plan[:total]

    def _write(self, plan: list[Planned]) -> None:
        with connection.cursor() as cursor:
            game_table = Game._meta.db_table
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id'))", [game_table])
            first_id = cursor.fetchone()[0]
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)",
                [game_table, first_id + len(plan)],
            )
        rows = list(zip(range(first_id, first_id + len(plan)), plan, strict=True))
        results: list[Result] = []
        games: dict[int, Game] = {}
        with connection.cursor() as cursor, cursor.connection.cursor() as raw:
            with raw.copy(
                f"COPY {_table(Game)} (id, owner_id, code, rule, status, score, move_count,"
                " cards_on_foundations, version, assisted, state, created_at, first_move_at,"
                " last_move_at, finished_at, time_played, daily_date, ranked, origin) FROM STDIN"
            ) as copy:
                for game_id, p in rows:
                    t = p.template
                    first = p.started + timedelta(seconds=5)
                    last = first + timedelta(seconds=p.seconds)
                    status = Game.Status.WON if t.won else Game.Status.ABANDONED
                    finished = last if t.won else last + timedelta(seconds=30)
                    origin = _origin(p.daily_date, ranked=p.ranked)
                    copy.write_row(
                        (game_id, p.player, t.code, t.rule, status, t.score, t.moves, t.cards,
                         len(t.log), p.assisted, t.state, p.started, first, last, finished,
                         last - first, p.daily_date, p.ranked, origin)
                    )  # fmt: skip
                    game = Game(
                        pk=game_id, owner_id=p.player, rule=t.rule, ranked=p.ranked,
                        daily_date=p.daily_date, origin=origin, assisted=p.assisted,
                    )  # fmt: skip
                    games[game_id] = game
                    results.append(
                        Result(
                            game_id=game_id, player_id=p.player, rule=t.rule, won=t.won,
                            moves=t.moves, duration=last - first, score=t.score,
                            cards_on_foundations=t.cards, assisted=p.assisted,
                            finished_at=finished,
                        )
                    )  # fmt: skip
            with raw.copy(
                f"COPY {_table(MoveLogEntry)} (game_id, seq, version, text, kind, intent,"
                " score_after, created_at) FROM STDIN"
            ) as copy:
                for game_id, p in rows:
                    for seq, (text, kind, score) in enumerate(p.template.log, start=1):
                        intent = "undo" if kind == MoveLogEntry.Kind.UNDO else "move"
                        copy.write_row((game_id, seq, seq, text, kind, intent, score, p.started))
        Result.objects.bulk_create(results, batch_size=5000)
        PlayerStats.objects.bulk_create(self._stats(results, games), batch_size=5000)

    @staticmethod
    def _stats(results: list[Result], games: dict[int, Game]) -> Iterator[PlayerStats]:
        rows: dict[tuple[int, str], PlayerStats] = {}
        for result in sorted(results, key=lambda r: r.finished_at):
            key = (result.player_id, result.rule)
            stats = rows.setdefault(key, PlayerStats(player_id=key[0], rule=key[1]))
            fold(stats, games[result.game_id], result)
        yield from rows.values()
