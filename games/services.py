"""Game services: start, play, tap, double click, undo, finish, resign; the clock's park and
resume.

Each write is one transaction: lock the game row, check the caller and the
version they saw, let the engine decide, append to the log, bump the version,
end the game when it is won (`games.endings`), and record what happened
(`games.events`; their pushes go out after commit). Parsing happens before the
lock so the locked section stays short.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import guests
from games import daily as daily_deals
from games import days, deals, endings, events
from games.arenas import play as arenas
from games.arenas.errors import ArenaOver
from games.engine import (
    CLASSIC,
    RULES,
    Card,
    GameCode,
    Move,
    MoveResult,
    Rule,
    finish,
    private_form,
)
from games.engine import Game as EngineGame
from games.errors import (
    CardsFaceDown,
    FinishBlocked,
    GameFinished,
    GameNotFinished,
    GameNotFound,
    NoSuchVersion,
    NothingLeftToPlay,
    NotYourGame,
    RuleMismatch,
    StaleVersion,
)
from games.fairness import dealing, visibility
from games.models import Game, MoveLogEntry
from games.odds import graded
from games.public import GameState, game_state
from games.races import lifecycle as races
from games.races.models import Racer
from ops import sql


@dataclass(frozen=True)
class Outcome:
    """A write's answer: the game after it, its public state, and whether it was a retry."""

    game: Game
    state: GameState
    replayed: bool = False


def start_game(
    player: User,
    *,
    code: str | None = None,
    rule: str | None = None,
    daily: bool = False,
    replaces: int | None = None,
    difficulty: str | None = None,
) -> Game:
    """A new game from a code (its rule letter decides), today's daily deal, a proven-winnable
    deal of a difficulty grade (`games.odds.graded`), or a random deal.

    `daily` with a `rule` other than Classic plays that rule's daily. `replaces`: the game the
    player leaves for this one, deleted if untouched (`_discard_untouched`).
    """
    chosen_rule = RULES[rule.upper()] if rule else CLASSIC
    if daily:
        return _start_daily(player, chosen_rule)
    if code:
        game_code = GameCode.parse(code)
        if rule and rule.upper() != game_code.rule.letter:
            raise RuleMismatch(
                f"The code {game_code} is a {game_code.rule.name} deal but rule {rule!r} was asked."
            )
    elif difficulty:
        game_code = GameCode(chosen_rule, graded.graded_number(chosen_rule, difficulty))
    else:
        game_code = GameCode.random(chosen_rule)
    dealing.ensure_may_deal(player, str(game_code))
    engine = deals.new_game(game_code)
    with transaction.atomic():
        if replaces is not None:
            _discard_untouched(player, replaces)
        game = Game.objects.create(
            owner=player,
            code=str(game_code),
            rule=game_code.rule.letter,
            state=private_form(engine),
        )
        events.happened(events.GameStarted(game))
    return game


def _discard_untouched(player: User, game_id: int) -> None:
    """Delete the game a new one replaces when nothing happened in it: the player's own, still
    active, without a log entry (version 0: no move, undo or resignation), and an ordinary
    game. A daily attempt (ranked or practice: its day counts attempts), a race game and
    any game with a move stay as they are, silently: the new game starts either way."""
    untouched = Game.objects.select_for_update().filter(
        pk=game_id,
        owner=player,
        status=Game.Status.ACTIVE,
        version=0,
        daily_date__isnull=True,
        raced=False,
        race_hidden=False,
    )
    game = untouched.first()
    if game is None or game.log.exists():
        return
    listed = visibility.open_to_anyone(game)
    game.delete()
    events.happened(events.GameDiscarded(game_id, listed))


def _start_daily(player: User, rule: Rule) -> Game:
    """The player's attempt at today's deal: the first one is ranked, later ones are practice,
    once the ranked one has ended (games.fairness.dealing).

    A guest's attempts are never ranked, nor is a signed-up guest's next one that day (they
    have seen the deal).
    """
    deal = daily_deals.deal_for(days.today(), rule=rule)
    ranked = not guests.is_guest(player) and not daily_deals.attempts(player, deal.date, rule)
    game_code = daily_deals.code_of(deal)
    if not ranked:
        dealing.ensure_may_deal(player, str(game_code))
    engine = deals.new_game(game_code)
    with transaction.atomic():
        fields = dict(
            owner=player,
            code=str(game_code),
            rule=game_code.rule.letter,
            state=private_form(engine),
            daily_date=deal.date,
        )
        try:
            with transaction.atomic():
                game = Game.objects.create(
                    **fields,
                    ranked=ranked,
                    origin=Game.Origin.DAILY_RANKED if ranked else Game.Origin.DAILY_PRACTICE,
                )
        except IntegrityError:  # the ranked attempt exists (game_one_ranked_daily_attempt_per_rule)
            dealing.ensure_may_deal(player, str(game_code))  # a twin request's ranked attempt
            game = Game.objects.create(**fields, ranked=False, origin=Game.Origin.DAILY_PRACTICE)
        events.happened(events.GameStarted(game))
    return game


# The hot path's statement (ops/sql.py says why it is built once): the game's row lock and
# the race it plays in (NULL for an ordinary game) in one round trip, so a write learns it
# needs the race's lock without a query of its own.
_RACER_GAME = sql.quote_column(sql.concrete_field(Racer, "game"))
_LOCK_GAME_AND_RACE = (
    f"SELECT {endings.GAME_COLUMNS.sql}, r.{sql.quote_column(sql.concrete_field(Racer, 'race'))}"
    f" FROM {sql.quote(Game._meta.db_table)} g"
    f" LEFT JOIN {sql.quote(Racer._meta.db_table)} r ON r.{_RACER_GAME} = g.id"
    " WHERE g.id = %s FOR UPDATE OF g"
)


def _locked_game(player: User, game_id: int) -> tuple[Game, int | None]:
    """The caller's game, locked, and the id of the race it plays in (None: in no race)."""
    found = sql.fetch_row(_LOCK_GAME_AND_RACE, [game_id], endings.GAME_COLUMNS)
    if found is None:
        raise GameNotFound(f"There is no game {game_id}.")
    (game,), (race_id,) = found
    assert isinstance(game, Game)
    if game.owner_id != player.pk:
        raise NotYourGame(f"Game {game_id} belongs to another player.")
    game.owner = player  # the caller is the owner: no join needed
    return game, race_id


#: A retry test: whether a write sent at `version` (behind the game) is the one that already
#: brought the game where it is.
type SameWrite = Callable[[Game, int], bool]


def _last_entry_matches(matches: Callable[[MoveLogEntry], bool]) -> SameWrite:
    """A retry test: the log entry that produced the current version is this same write."""

    def test(game: Game, version: int) -> bool:
        if version != game.version - 1:
            return False
        last = game.log.filter(version=game.version).first()
        return last is not None and matches(last)

    return test


class _InRace(Exception):
    """The game plays in a race: its write starts again, the race settled and locked first."""

    def __init__(self, race_id: int) -> None:
        self.race_id = race_id


def _write(
    player: User,
    game_id: int,
    version: int,
    apply: Callable[[Game, EngineGame], GameState],
    is_same_write: SameWrite,
) -> Outcome:
    """One write, in one transaction.

    Lock order is the race row, then the game row (games.races.lifecycle), so that a win, a
    time limit and a forfeit are decided one at a time. But whether a game plays in a race
    is only known once its row is read, and a query to ask first would cost every ordinary
    move a round trip. So the first attempt locks the game and reads its race in the same
    statement: an ordinary game (nearly every write) goes on under that lock. A race game
    raises `_InRace` before anything is written; that transaction rolls back, and the
    second attempt settles the race's timers and locks the race, then the game, as the
    lock order wants.
    """
    try:
        return _write_locked(player, game_id, version, apply, is_same_write, race_id=None)
    except _InRace as found:  # nothing was written: the first transaction rolled back
        races.settle(found.race_id)
        return _write_locked(player, game_id, version, apply, is_same_write, found.race_id)
    except ArenaOver as over:  # rolled back too: the end closes the game, in the lock order
        arenas.settle_after(over)
        raise


def _write_locked(
    player: User,
    game_id: int,
    version: int,
    apply: Callable[[Game, EngineGame], GameState],
    is_same_write: SameWrite,
    race_id: int | None,
) -> Outcome:
    with transaction.atomic():
        race = races.locked(race_id) if race_id is not None else None  # the race first, always
        game, game_race_id = _locked_game(player, game_id)
        if race is None and game_race_id is not None:
            raise _InRace(game_race_id)
        if race is not None:
            races.ensure_running(race)
        arena_game = game.origin == Game.Origin.ARENA
        if arena_game:
            arenas.ensure_open(game)
        if version != game.version:
            if is_same_write(game, version):
                return Outcome(game, game_state(game), replayed=True)
            raise StaleVersion(
                f"You saw version {version} but the game is at version {game.version}.",
                game_state(game),
            )
        if game.status == Game.Status.ABANDONED:
            raise GameFinished(f"Game {game_id} was abandoned; start a new game.")
        state = apply(game, deals.current(game))
        if race is not None:
            races.record(race, game, state)
        if arena_game:
            state = arenas.record(game, state)
    return Outcome(game, state)


def _record_step(
    game: Game,
    engine: EngineGame,
    *,
    text: str,
    kind: str,
    intent: str,
    event: Callable[[GameState], events.Event],
) -> GameState:
    """Persist the engine's new state and its log entry, record what happened, return the
    state (and end the game if it was won)."""
    daily_deals.ensure_playable(game)
    now = timezone.now()
    game.version += 1
    game.state = private_form(engine)
    game.score = engine.score
    game.move_count = engine.move_count
    game.cards_on_foundations = engine.cards_on_foundations
    game.last_move_at = now
    if game.first_move_at is None:
        game.first_move_at = now
    game.count_time(now, running=not engine.won)  # a move is a sign of life (games.clock)
    if engine.won:
        game.status = Game.Status.WON
        game.finished_at = now
    # One round trip for both writes. The log's seq is the version: only abandoning bumps
    # the version without a log entry, and it is final.
    sql.run(
        sql.update_of(game, endings.WRITTEN_FIELDS),
        sql.insert_of(
            MoveLogEntry,
            game_id=game.pk,
            seq=game.version,
            version=game.version,
            text=text,
            kind=kind,
            intent=intent,
            score_after=engine.score,
            created_at=now,
        ),
    )
    state = game_state(game, engine)
    events.happened(event(state))
    if engine.won:
        endings.finish(game, state)
    return state


def _apply_move(game: Game, engine: EngineGame, move: Move, intent: str) -> GameState:
    result: MoveResult = engine.play(move)
    kind = MoveLogEntry.Kind.TAKE_BACK if result.is_take_back else MoveLogEntry.Kind.MOVE
    return _record_step(
        game,
        engine,
        text=str(result.move),
        kind=kind,
        intent=intent,
        event=lambda state: events.Moved(game, result, kind, intent, state),
    )


def play_move(player: User, game_id: int, *, move: str, version: int) -> Outcome:
    parsed = Move.parse(move)
    return _write(
        player,
        game_id,
        version,
        lambda game, engine: _apply_move(game, engine, parsed, MoveLogEntry.Intent.MOVE),
        _last_entry_matches(
            lambda entry: entry.intent == MoveLogEntry.Intent.MOVE and entry.text == str(parsed)
        ),
    )


def _assist(
    player: User,
    game_id: int,
    card: str,
    version: int,
    intent: str,
    choose: Callable[[EngineGame, Card], Move],
) -> Outcome:
    parsed = Card.parse(card)
    return _write(
        player,
        game_id,
        version,
        lambda game, engine: _apply_move(game, engine, choose(engine, parsed), intent),
        _last_entry_matches(
            lambda entry: entry.intent == intent and Move.parse(entry.text).card == parsed
        ),
    )


def tap(player: User, game_id: int, *, card: str, version: int) -> Outcome:
    """Tap the last card of a column: it goes to its foundation if the rules allow."""
    return _assist(
        player,
        game_id,
        card,
        version,
        MoveLogEntry.Intent.TAP,
        lambda engine, parsed: engine.tap_move(parsed),
    )


def double_click(player: User, game_id: int, *, card: str, version: int) -> Outcome:
    """Double click: the engine picks the tableau column for the card and what lies on it."""
    return _assist(
        player,
        game_id,
        card,
        version,
        MoveLogEntry.Intent.DOUBLE_CLICK,
        lambda engine, parsed: engine.double_click_move(parsed),
    )


def _apply_undo(game: Game, engine: EngineGame) -> GameState:
    if game.origin == Game.Origin.ARENA:
        arenas.ensure_undo_allowed(game)
    undone = str(engine.undo().move)
    return _record_step(
        game,
        engine,
        text="undo",
        kind=MoveLogEntry.Kind.UNDO,
        intent=MoveLogEntry.Intent.UNDO,
        event=lambda state: events.Undone(game, undone, state),
    )


def undo(player: User, game_id: int, *, version: int) -> Outcome:
    return _write(
        player,
        game_id,
        version,
        _apply_undo,
        _last_entry_matches(lambda entry: entry.kind == MoveLogEntry.Kind.UNDO),
    )


def resign(player: User, game_id: int, *, version: int) -> Outcome:
    """Give up an active game: it ends unfinished, `abandoned` (no log entry: nothing moved)."""

    def apply(game: Game, engine: EngineGame) -> GameState:
        if game.status == Game.Status.WON:
            raise GameFinished(f"Game {game_id} is already won.")
        return endings.end_unfinished(game, engine)

    def already_abandoned(game: Game, version: int) -> bool:
        return version == game.version - 1 and game.status == Game.Status.ABANDONED

    return _write(player, game_id, version, apply, already_abandoned)


def _apply_finish(game: Game, engine: EngineGame) -> GameState:
    if engine.won:
        raise GameFinished(f"Game {game.pk} is already won.")
    if not finish.every_card_face_up(engine):
        raise CardsFaceDown(f"Game {game.pk} still has face-down cards: finish comes after.")
    line = finish.finishing_line(engine)
    if line is None:
        raise FinishBlocked(f"No line carries every card of game {game.pk} home from here.")
    # One log entry each, scored by the engine as if played by hand; the last one wins.
    states = [_apply_move(game, engine, move, MoveLogEntry.Intent.FINISH) for move in line]
    return states[-1]


def _finished_since(game: Game, version: int) -> bool:
    """A retry test for finish: the game is won and every entry after `version` is a finish's."""
    intents = game.log.filter(version__gt=version).values_list("intent", flat=True)
    return game.status == Game.Status.WON and all(
        intent == MoveLogEntry.Intent.FINISH for intent in intents
    )


def finish_game(player: User, game_id: int, *, version: int) -> Outcome:
    """Finish: once every card is face up, play the moves that carry the rest home
    (games.engine.finish), each a log entry of its own, as if played one by one."""
    return _write(player, game_id, version, _apply_finish, _finished_since)


def finish_steps(game: Game) -> list[dict[str, Any]]:
    """The public board after each move of the game's last finish (the log's trailing
    `finish` entries), for a client to show them one at a time."""
    entries = list(game.log.order_by("seq").values_list("text", "intent"))
    start = len(entries)
    while start and entries[start - 1][1] == MoveLogEntry.Intent.FINISH:
        start -= 1
    texts = [text for text, _intent in entries]
    before = deals.replayed(game, texts[:start])
    return deals.public_steps(before, texts[start:], after=start)[1:]


def resume(player: User, game_id: int) -> GameState:
    """The player is at the table (it opened, came back in sight, or is still there): the clock
    runs from now, once the game has its first move (games.clock)."""
    return _set_clock(player, game_id, running=True)


def park(player: User, game_id: int) -> GameState:
    """The player left the table (closed, hidden, kept for later): the clock stops until the
    next resume or move."""
    return _set_clock(player, game_id, running=False)


def _set_clock(player: User, game_id: int, *, running: bool) -> GameState:
    """Count the clock's time so far and run on or stand still; the version stays (no move)."""
    with transaction.atomic():
        game, _race = _locked_game(player, game_id)
        live = game.status == Game.Status.ACTIVE and not days.is_closed(game)
        started = game.first_move_at is not None
        if live and started and (running or game.clock_at is not None):
            game.count_time(timezone.now(), running=running)
            sql.run(sql.update_of(game, ("time_played", "clock_at")))
        return game_state(game)


def retry_from(player: User, game_id: int, version: int) -> Game:
    """A practice game from a position of one's own finished game: the same deal and the log
    up to `version` (so it replays like any game), unranked and assisted (its player has
    seen how the game went, and maybe its analysis), counted for nothing
    (games.fairness.counting). A daily game's retry stays an attempt of that day, so its code
    stays hidden while the day runs, and waits for the day's ranked attempt to end
    (games.fairness.dealing). A position with nothing left to play (every card home, or no
    legal move) is no game to retry."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(f"There is no game {game_id}.")
    if game.owner_id != player.pk:
        raise NotYourGame(f"Game {game_id} belongs to another player.")
    visibility.ensure_replayable(game, player)
    if not game.is_finished:
        raise GameNotFinished(f"Game {game_id} is still being played: finish it first.")
    texts = list(game.log.order_by("seq").values_list("text", flat=True))
    if not 0 <= version <= len(texts):
        raise NoSuchVersion(f"Game {game_id} has versions 0 to {len(texts)}, not {version}.")
    dealing.ensure_may_deal(player, game.code)
    engine = deals.replayed(game, texts[:version])
    if engine.won or not engine.legal_moves:
        raise NothingLeftToPlay(
            f"Game {game_id} at version {version} has no move left to play: retry from an "
            "earlier position."
        )
    now = timezone.now()
    with transaction.atomic():
        retry = Game.objects.create(
            owner=player,
            code=game.code,
            rule=game.rule,
            state=private_form(engine),
            version=version,
            score=engine.score,
            move_count=engine.move_count,
            cards_on_foundations=engine.cards_on_foundations,
            assisted=True,
            daily_date=game.daily_date,
            origin=Game.Origin.RETRY,
            retried_from=game,
            first_move_at=now if version else None,
            last_move_at=now if version else None,
        )
        MoveLogEntry.objects.bulk_create(
            MoveLogEntry(
                game=retry,
                seq=entry.seq,
                version=entry.version,
                text=entry.text,
                kind=entry.kind,
                intent=entry.intent,
                score_after=entry.score_after,
                created_at=now,
            )
            for entry in game.log.filter(seq__lte=version).order_by("seq")
        )
        events.happened(events.GameStarted(retry))
    return retry
