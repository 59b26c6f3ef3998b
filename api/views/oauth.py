"""Third-party apps a player registers for the OAuth2 flow (session only, like tokens)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError as DjangoValidationError
from oauth2_provider.generators import generate_client_secret
from oauth2_provider.models import get_application_model
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import SessionOnly
from api.serializers.accounts import (
    NewOAuthAppSerializer,
    OAuthAppCreateSerializer,
    OAuthAppSerializer,
)
from api.serializers.common import validated
from api.views.accounts import credential_schema, delete_own

if TYPE_CHECKING:
    from api.permissions import SignedInRequest

Application = get_application_model()


def app_dict(app: Any) -> dict[str, Any]:
    return {
        "id": app.pk,
        "name": app.name,
        "client_id": app.client_id,
        "redirect_uris": app.redirect_uris.split(),
        "confidential": app.client_type == Application.CLIENT_CONFIDENTIAL,
        "created_at": app.created,
    }


class AppListView(APIView):
    permission_classes = [IsAuthenticated, SessionOnly]
    required_scope = "account:write"  # never reached by a token: SessionOnly refuses it

    @credential_schema("My registered OAuth apps", {200: OAuthAppSerializer(many=True)})
    def get(self, request: SignedInRequest) -> Response:
        apps = Application.objects.filter(user=request.user).order_by("-created", "-id")
        return Response([app_dict(app) for app in apps])

    @credential_schema(
        "Register an OAuth app (authorization code flow with PKCE)",
        {201: NewOAuthAppSerializer},
        400,
        413,
        request=OAuthAppCreateSerializer,
    )
    def post(self, request: SignedInRequest) -> Response:
        data = validated(OAuthAppCreateSerializer, request.data)
        confidential = data["confidential"]
        kind = Application.CLIENT_CONFIDENTIAL if confidential else Application.CLIENT_PUBLIC
        secret = generate_client_secret() if confidential else ""
        app = Application(
            user=request.user,
            name=data["name"],
            redirect_uris=" ".join(data["redirect_uris"]),
            client_type=kind,
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            client_secret=secret,
            hash_client_secret=True,
            algorithm="",
        )
        try:
            app.full_clean()
        except DjangoValidationError as problem:  # e.g. a redirect URI the toolkit refuses
            raise ValidationError(problem.message_dict) from None
        app.save()
        body = {**app_dict(app), "client_secret": secret or None}
        return Response(body, status=status.HTTP_201_CREATED)


class AppDetailView(APIView):
    permission_classes = [IsAuthenticated, SessionOnly]
    required_scope = "account:write"

    @credential_schema(
        "Delete an OAuth app (its tokens stop working, their websockets close)", {204: None}, 404
    )
    def delete(self, request: SignedInRequest, app_id: int) -> Response:
        return delete_own(Application, request, app_id)
