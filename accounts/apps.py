from typing import Any

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Players: registration, sessions, personal API tokens."""

    name = "accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts import play_sources

        user_logged_in.connect(play_sources.noted_at_sign_in, dispatch_uid="play-sources")
        user_logged_in.connect(_record_session, dispatch_uid="accounts.sessions.record")


def _record_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Every sign-in (password, registration, guest, upgrade) lists its session."""
    from accounts import sessions

    if request is not None and hasattr(request, "session"):
        sessions.record(request, user)
