"""The REST API, version 1, and its OpenAPI schema with locally served docs."""

from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt

import api.converters  # noqa: F401 (registers <username:...>, <room:...>, <position:...>)
from api.errors import no_such_race, not_found
from api.views import (
    accounts,
    analysis,
    arenas,
    boards,
    daily,
    games,
    hints,
    leaderboards,
    oauth,
    odds,
    openapi,
    players,
    puzzles,
    races,
    security,
    your_account,
)

v1 = [
    path("auth/register", accounts.RegisterView.as_view(), name="register"),
    path("auth/guest", accounts.GuestView.as_view(), name="guest"),
    path("auth/upgrade", accounts.UpgradeView.as_view(), name="upgrade"),
    path("auth/login", accounts.LoginView.as_view(), name="login"),
    path("auth/logout", accounts.LogoutView.as_view(), name="logout"),
    path("auth/me", accounts.MeView.as_view(), name="me"),
    path("auth/csrf", accounts.CsrfView.as_view(), name="csrf"),
    path("me/settings", accounts.SettingsView.as_view(), name="settings"),
    path("me/two-factor", security.TwoFactorView.as_view(), name="two-factor"),
    path("me/two-factor/setup", security.TwoFactorSetupView.as_view(), name="two-factor-setup"),
    path(
        "me/two-factor/confirm", security.TwoFactorConfirmView.as_view(), name="two-factor-confirm"
    ),
    path(
        "me/two-factor/disable", security.TwoFactorDisableView.as_view(), name="two-factor-disable"
    ),
    path(
        "me/two-factor/recovery-codes",
        security.RecoveryCodesView.as_view(),
        name="two-factor-recovery-codes",
    ),
    path("me/sessions", security.SessionListView.as_view(), name="sessions"),
    path(
        "me/sessions/sign-out-others",
        security.SignOutOthersView.as_view(),
        name="sessions-sign-out-others",
    ),
    path("me/sessions/<int:session_id>", security.SessionDetailView.as_view(), name="session"),
    path("me/email", your_account.EmailView.as_view(), name="me-email"),
    path("auth/email/confirm", your_account.EmailConfirmView.as_view(), name="email-confirm"),
    path("me/password", your_account.PasswordView.as_view(), name="me-password"),
    path("auth/password-reset", your_account.ResetRequestView.as_view(), name="password-reset"),
    path(
        "auth/password-reset/confirm",
        your_account.ResetView.as_view(),
        name="password-reset-confirm",
    ),
    path("me/export", your_account.ExportView.as_view(), name="me-export"),
    path(
        "me/export/<int:export_id>/download",
        your_account.ExportDownloadView.as_view(),
        name="me-export-download",
    ),
    path("me/delete", your_account.CloseView.as_view(), name="me-delete"),
    path("tokens", accounts.TokenListView.as_view(), name="tokens"),
    path("tokens/<int:token_id>", accounts.TokenDetailView.as_view(), name="token"),
    path("oauth/apps", oauth.AppListView.as_view(), name="oauth-apps"),
    path("oauth/apps/<int:app_id>", oauth.AppDetailView.as_view(), name="oauth-app"),
    path("games", games.GameListView.as_view(), name="games"),
    path("games/<int:game_id>", games.GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/log", games.GameLogView.as_view(), name="game-log"),
    path("games/<int:game_id>/moves", games.MoveView.as_view(), name="game-move"),
    path("games/<int:game_id>/tap", games.TapView.as_view(), name="game-tap"),
    path("games/<int:game_id>/double-click", games.DoubleClickView.as_view(), name="game-dblclick"),
    path("games/<int:game_id>/undo", games.UndoView.as_view(), name="game-undo"),
    path("games/<int:game_id>/finish", games.FinishView.as_view(), name="game-finish"),
    path("games/<int:game_id>/resign", games.ResignView.as_view(), name="game-resign"),
    path("games/<int:game_id>/resume", games.ResumeView.as_view(), name="game-resume"),
    path("games/<int:game_id>/park", games.ParkView.as_view(), name="game-park"),
    # The first name of resigning: an alias, documented as deprecated.
    path("games/<int:game_id>/abandon", games.AbandonView.as_view(), name="game-abandon"),
    path("games/<int:game_id>/replay", games.GameReplayView.as_view(), name="game-replay"),
    path("games/<int:game_id>/retry", games.RetryView.as_view(), name="game-retry"),
    path("games/<int:game_id>/hint", hints.HintView.as_view(), name="game-hint"),
    path(
        "games/<int:game_id>/winnability",
        hints.WinnabilityView.as_view(),
        name="game-winnability",
    ),
    path(
        "games/<int:game_id>/analysis",
        analysis.GameAnalysisView.as_view(),
        name="game-analysis",
    ),
    path("daily", daily.DailyTodayView.as_view(), name="daily"),
    path("daily/play", daily.DailyPlayView.as_view(), name="daily-play"),
    path("daily/<str:day>", daily.DailyRankingView.as_view(), name="daily-ranking"),
    path("daily/<str:day>/line", analysis.DailyLineView.as_view(), name="daily-line"),
    path(
        "daily/<str:day>/games/<int:game_id>/replay",
        daily.DailyReplayView.as_view(),
        name="daily-replay",
    ),
    path("puzzles/daily", puzzles.DailyPuzzleView.as_view(), name="puzzle-daily"),
    path("puzzles/next", puzzles.NextPuzzleView.as_view(), name="puzzle-next"),
    path("puzzles/<int:puzzle_id>", puzzles.PuzzleDetailView.as_view(), name="puzzle"),
    path(
        "puzzles/<int:puzzle_id>/board",
        boards.BoardFromPuzzleView.as_view(),
        name="puzzle-board",
    ),
    path("games/<int:game_id>/board", boards.BoardFromGameView.as_view(), name="game-board"),
    path("positions/<position:key>", boards.BoardPositionView.as_view(), name="board-position"),
    path("positions/<position:key>/moves", boards.BoardMovesView.as_view(), name="board-moves"),
    path(
        "puzzles/<int:puzzle_id>/attempts",
        puzzles.AttemptView.as_view(),
        name="puzzle-attempts",
    ),
    path("leaderboards", leaderboards.BoardListView.as_view(), name="leaderboards"),
    path("stats/winnability", odds.WinnabilityView.as_view(), name="stats-winnability"),
    path("leaderboards/<str:board>", leaderboards.BoardView.as_view(), name="leaderboard"),
    path("races", races.RaceListView.as_view(), name="races"),
    path("races/queue", races.QueueView.as_view(), name="race-queue"),
    path("races/leaderboard", races.RaceLeaderboardView.as_view(), name="race-leaderboard"),
    path("races/<room:room>", races.RaceDetailView.as_view(), name="race"),
    path("races/<room:room>/join", races.JoinView.as_view(), name="race-join"),
    path("races/<room:room>/ready", races.ReadyView.as_view(), name="race-ready"),
    path("races/<room:room>/start", races.StartView.as_view(), name="race-start"),
    path("races/<room:room>/leave", races.LeaveView.as_view(), name="race-leave"),
    path("races/<room:room>/rematch", races.RematchView.as_view(), name="race-rematch"),
    # A room code no room can have: the answer an unknown room gets (not the bare JSON 404).
    re_path(
        r"^races/[^/]+(?:/(?:join|ready|start|leave|rematch))?$",
        csrf_exempt(no_such_race),
        name="race-malformed",
    ),
    path("arenas", arenas.ArenaListView.as_view(), name="arenas"),
    path("arenas/<arena:arena>", arenas.ArenaDetailView.as_view(), name="arena"),
    path("arenas/<arena:arena>/join", arenas.JoinView.as_view(), name="arena-join"),
    path("arenas/<arena:arena>/game", arenas.CurrentGameView.as_view(), name="arena-game"),
    path("arenas/<arena:arena>/games", arenas.SeatGamesView.as_view(), name="arena-games"),
    path(
        "arenas/<arena:arena>/without-undo",
        arenas.WithoutUndoView.as_view(),
        name="arena-without-undo",
    ),
    path("arenas/<arena:arena>/standings", arenas.StandingsView.as_view(), name="arena-standings"),
    path("players/<username:username>", players.ProfileView.as_view(), name="player"),
    path(
        "players/<username:username>/charts/<str:chart>",
        players.ChartView.as_view(),
        name="player-chart",
    ),
    path("players/<username:username>/races", races.PlayerRacesView.as_view(), name="player-races"),
    path(
        "players/<username:username>/history", players.HistoryView.as_view(), name="player-history"
    ),
]

urlpatterns = [
    path("v1/", include(v1)),
    path("schema/", openapi.SchemaView.as_view(), name="schema"),
    path("docs/", openapi.SwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("redoc/", openapi.RedocView.as_view(url_name="schema"), name="api-redoc"),
    # Anything else under /api/ is a JSON 404, even under DEBUG (whose 404 page is HTML that
    # lists every route) and for a POST missing its slash (APPEND_SLASH cannot redirect it).
    re_path(r"", csrf_exempt(not_found), name="api-not-found"),
]
