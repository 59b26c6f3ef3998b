"""WSGI entry point: serves the HTTP API (websockets need the ASGI app)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
application = get_wsgi_application()
