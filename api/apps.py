from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The public REST API and websocket endpoints (v1)."""

    name = "api"
