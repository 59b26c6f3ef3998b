"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
django_http = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from api.realtime.auth import TokenOrSessionAuthMiddlewareStack  # noqa: E402
from api.realtime.origin import SameOriginValidator  # noqa: E402
from api.realtime.routing import websocket_urlpatterns  # noqa: E402
from ops.asgi import FreshContext, RunToCompletion  # noqa: E402

# Each request in a context of its own, and never cancelled half-way: see ops/asgi.py.
application = FreshContext(
    ProtocolTypeRouter(
        {
            "http": RunToCompletion(django_http),
            "websocket": SameOriginValidator(
                TokenOrSessionAuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)
