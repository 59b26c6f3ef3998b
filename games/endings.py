"""How a game ends: its final row, its result and statistics, its analysis, one event.

Both ways a game can end go through here: a player's write (a win, a resignation:
`games.services`) and the end of its race (`games.races.lifecycle` closes the unfinished
games), each inside the transaction holding the game's row lock.
"""

from __future__ import annotations

from django.utils import timezone

from games import deals, events, stats
from games.analysis import jobs as analysis_jobs
from games.engine import Game as EngineGame
from games.models import Game, Result
from games.public import GameState, game_state
from ops import sql

# The write path's statements, built once (ops/sql.py says why).
GAME_COLUMNS = sql.Columns(Game, "g")
LOCK_GAME = (
    f"SELECT {GAME_COLUMNS.sql} FROM {sql.quote(Game._meta.db_table)} g WHERE g.id = %s FOR UPDATE"
)
#: What a write changes in the game row.
WRITTEN_FIELDS = (
    "version",
    "state",
    "score",
    "move_count",
    "cards_on_foundations",
    "status",
    "first_move_at",
    "last_move_at",
    "finished_at",
    "time_played",
    "clock_at",
)


def finish(game: Game, state: GameState) -> None:
    """A game just ended (won or abandoned): its result once, its analysis, the event.

    A race game's result is its racer's place (games.races): it stays out of the ordinary
    results and statistics. An arena game's analysis waits for its arena's end
    (`analysis_jobs.enqueue_ended_arenas`): nobody may read it before, and meanwhile the
    workers' CPU goes to the moves.
    """
    assert game.finished_at is not None
    if not game.raced:
        _record_result(game)
    if game.origin != Game.Origin.ARENA:
        analysis_jobs.enqueue(game)
    events.happened(events.GameEnded(game, state))


def _record_result(game: Game) -> None:
    assert game.finished_at is not None
    result = Result.objects.create(
        game=game,
        player_id=game.owner_id,
        rule=game.rule,
        won=game.status == Game.Status.WON,
        moves=game.move_count,
        duration=game.elapsed(game.finished_at),
        score=game.score,
        cards_on_foundations=game.cards_on_foundations,
        assisted=game.assisted,
        finished_at=game.finished_at,
    )
    stats.record(game, result)


def end_unfinished(game: Game, engine: EngineGame) -> GameState:
    """End an active game as it stands (resigned, or closed by its race): no log entry."""
    game.status = Game.Status.ABANDONED
    game.finished_at = timezone.now()
    game.count_time(game.finished_at, running=False)
    game.version += 1
    sql.run(sql.update_of(game, WRITTEN_FIELDS))
    state = game_state(game, engine)
    finish(game, state)
    return state


def close_for_race(game_id: int) -> None:
    """End a race game its race ended (time limit, another racer's win, a forfeit), as if
    abandoned; the caller holds the race's lock (games.races.lifecycle)."""
    found = sql.fetch_instances(LOCK_GAME, [game_id], GAME_COLUMNS)
    if found is None:
        return
    game = found[0]
    assert isinstance(game, Game)
    if game.status == Game.Status.ACTIVE:
        end_unfinished(game, deals.current(game))
