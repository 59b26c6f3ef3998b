"""Third-party apps a player registers for the OAuth2 flow (session only, like tokens)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from oauth2_provider.generators import generate_client_secret
from oauth2_provider.models import get_application_model
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api import serializers as s
from api.docs import errors
from api.permissions import SessionOnly, SessionRequired
from api.views.accounts import TOKEN_MANAGEMENT

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

    @extend_schema(
        summary="My registered OAuth apps",
        responses={
            200: s.OAuthAppSerializer(many=True),
            **errors(401, 403, example_403=SessionRequired()),
        },
        **TOKEN_MANAGEMENT,
    )
    def get(self, request: SignedInRequest) -> Response:
        apps = Application.objects.filter(user=request.user).order_by("-created", "-id")
        return Response([app_dict(app) for app in apps])

    @extend_schema(
        summary="Register an OAuth app (authorization code flow with PKCE)",
        request=s.OAuthAppCreateSerializer,
        responses={
            201: s.NewOAuthAppSerializer,
            **errors(400, 401, 403, 413, example_403=SessionRequired()),
        },
        **TOKEN_MANAGEMENT,
    )
    def post(self, request: SignedInRequest) -> Response:
        spec = s.OAuthAppCreateSerializer(data=request.data)
        spec.is_valid(raise_exception=True)
        data = spec.validated_data
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

    @extend_schema(
        summary="Delete an OAuth app (its tokens stop working, their websockets close)",
        responses={204: None, **errors(401, 403, 404, example_403=SessionRequired())},
        **TOKEN_MANAGEMENT,
    )
    def delete(self, request: SignedInRequest, app_id: int) -> Response:
        get_object_or_404(Application, pk=app_id, user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
