"""Teach drf-spectacular about Bearer tokens and the scope each operation needs.

A Bearer value is a personal token or an OAuth access token; the schema names
both schemes, and each operation's security requirement lists the scope its
view declares (`required_scope`, `accounts.scopes`), for either scheme.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension

from accounts.scopes import PUBLIC, SCOPES, scope_for


class BearerTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "accounts.authentication.BearerTokenAuthentication"
    name = ["oauth2", "bearerToken"]

    def get_security_requirement(self, auto_schema: Any) -> list[dict[str, list[Any]]]:
        scope = scope_for(getattr(auto_schema.view, "required_scope", None), auto_schema.method)
        scopes = [] if scope in (None, PUBLIC) else [scope]
        return [{"oauth2": scopes}, {"bearerToken": scopes}]

    def get_security_definition(self, auto_schema: Any) -> list[dict[str, Any]]:
        oauth2 = {
            "type": "oauth2",
            "description": (
                "OAuth2 authorization code flow with PKCE (S256) for third-party apps "
                "(register one at /api/v1/oauth/apps). Access tokens start with yko_."
            ),
            "flows": {
                "authorizationCode": {
                    "authorizationUrl": "/oauth/authorize/",
                    "tokenUrl": "/oauth/token/",
                    "refreshUrl": "/oauth/token/",
                    "scopes": {name: str(text) for name, text in SCOPES.items()},
                }
            },
        }
        bearer = {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "A personal API token (yk_...), made by a signed-in session at /api/v1/tokens, "
                "with the scopes chosen then (the scopes listed per operation apply too)."
            ),
        }
        return [oauth2, bearer]
