"""Fair play: the one place that decides what counts (docs/fair-play.md).

Every door of the service (REST views, websocket feeds, pushes, pages, tasks, boards) asks
these modules and decides nothing itself:

- `visibility`: may this viewer see this? (a game, its code, its log, analysis, a puzzle);
- `dealing`: may this player be dealt this deal's cards? (no rehearsal of today's daily);
- `solver_help`: may this player get the solver's help here?
- `counting`: does this result count for boards, streaks, records, ratings?

`attempts` tells which ranked attempts (a daily, a race) a player still has ahead or in play,
which both `dealing` and `solver_help` hold back for.
"""
