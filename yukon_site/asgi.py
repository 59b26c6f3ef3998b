"""ASGI entry point: HTTP through Django (WSGI, on threads), websockets through Channels."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
django_http = get_wsgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from api.realtime.auth import TokenOrSessionAuthMiddlewareStack  # noqa: E402
from api.realtime.origin import SameOriginValidator  # noqa: E402
from api.realtime.routing import websocket_urlpatterns  # noqa: E402
from ops.asgi import FreshContext, ThreadedWsgi  # noqa: E402

# Each connection in a context of its own; HTTP as under WSGI, one thread hand-off per
# request, never cancelled half-way: see ops/asgi.py.
application = FreshContext(
    ProtocolTypeRouter(
        {
            "http": ThreadedWsgi(django_http, settings.HTTP_THREADS),
            "websocket": SameOriginValidator(
                TokenOrSessionAuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)
