"""Client-side routes, all served by the same shell (deep links work on reload)."""

from django.urls import path

from frontend.views import shell

urlpatterns = [
    path("", shell, name="app-home"),
    path("game/<int:game_id>", shell, name="app-game"),
    path("game/<int:game_id>/replay", shell, name="app-game-replay"),
    path("watch", shell, name="app-watch-list"),
    path("watch/<int:game_id>", shell, name="app-watch"),
    path("login", shell, name="app-login"),
    path("signup", shell, name="app-signup"),
    path("settings", shell, name="app-settings"),
    path("games", shell, name="app-my-games"),
    path("tokens", shell, name="app-tokens"),
    path("security", shell, name="app-security"),
    path("account", shell, name="app-account"),
    path("account/forgot", shell, name="app-account-forgot"),
    path("account/reset", shell, name="app-account-reset"),
    path("account/email", shell, name="app-account-email"),
    path("daily", shell, name="app-daily"),
    path("daily/<str:day>", shell, name="app-daily-day"),
    path("daily/<str:day>/games/<int:game_id>/replay", shell, name="app-daily-replay"),
    path("daily/<str:day>/line", shell, name="app-daily-line"),
    path("races", shell, name="app-races"),
    path("races/<str:room>", shell, name="app-race"),
    path("arenas", shell, name="app-arenas"),
    path("arenas/<str:arena>", shell, name="app-arena"),
    path("leaderboards", shell, name="app-leaderboards"),
    path("players/<str:name>", shell, name="app-player"),
    path("puzzles", shell, name="app-puzzles"),
    path("puzzles/<int:puzzle_id>", shell, name="app-puzzle"),
    path("odds", shell, name="app-odds"),
    path("board/<str:key>", shell, name="app-board"),
]
