from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Players: registration, sessions, personal API tokens."""

    name = "accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts import play_sources

        user_logged_in.connect(play_sources.noted_at_sign_in, dispatch_uid="play-sources")
