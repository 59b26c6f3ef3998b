from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The public REST API and websocket endpoints (v1)."""

    name = "api"

    def ready(self) -> None:
        from api import schema  # noqa: F401  (registers the schema extension)
        from api.realtime import revocation

        revocation.connect_signals()
