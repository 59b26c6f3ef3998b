from django.apps import AppConfig


class FrontendConfig(AppConfig):
    """Serves the single-page browser app and its static files."""

    name = "frontend"
