from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Players: registration, sessions, personal API tokens."""

    name = "accounts"
