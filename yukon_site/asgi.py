"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
django_http = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from api.realtime.auth import TokenOrSessionAuthMiddlewareStack  # noqa: E402
from api.realtime.origin import SameOriginValidator  # noqa: E402
from api.realtime.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_http,
        "websocket": SameOriginValidator(
            TokenOrSessionAuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
