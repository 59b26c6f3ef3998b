"""The OpenAPI document and its two reading pages: public, with or without a token.

drf-spectacular's views declare no `required_scope`, so a token was refused there
(fail closed: 403 on the schema, and a 500 on the pages, whose HTML renderer could not
draw the refusal). Declared public here, as sign-in is: any live token is welcome and
none is needed. An unknown or revoked token is still a 401, as on every public read
(docs/api.md section 1), and any refusal is the API's JSON error, not YAML or HTML.
"""

from __future__ import annotations

from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import PUBLIC
from api.renderers import JSONRenderer


class PublicDocs(APIView):
    """What the three docs views share: public, and refusals in the API's JSON."""

    required_scope = PUBLIC
    permission_classes = [AllowAny]

    def handle_exception(self, exc: Exception) -> Response:
        # The error is rendered by the negotiated renderer (YAML, HTML) unless told.
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return super().handle_exception(exc)


class SchemaView(PublicDocs, SpectacularAPIView):
    """`/api/schema/`: the OpenAPI 3.1 document (YAML, or JSON with `?format=json`)."""


class SwaggerView(PublicDocs, SpectacularSwaggerView):
    """`/api/docs/`: Swagger UI from local files."""


class RedocView(PublicDocs, SpectacularRedocView):
    """`/api/redoc/`: ReDoc from local files."""
