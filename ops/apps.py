from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Operational plumbing: health probes, request ids, structured logs."""

    name = "ops"
