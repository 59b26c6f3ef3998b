"""Teach drf-spectacular about Bearer tokens and the scope each operation needs.

A Bearer value is a personal token or an OAuth access token; the schema names
both schemes, and each operation's security requirement lists the scope its
view declares (`required_scope`, `accounts.scopes`), for either scheme.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension

from accounts.scopes import PUBLIC, SCOPES, scope_for
from api.errors import error_codes


class BearerTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "accounts.authentication.BearerTokenAuthentication"
    name = ["oauth2", "bearerToken"]

    def get_security_requirement(self, auto_schema: Any) -> list[dict[str, list[Any]]]:
        needed = scope_for(getattr(auto_schema.view, "required_scope", None), auto_schema.method)
        if needed in (None, PUBLIC):
            return [{"oauth2": []}, {"bearerToken": []}]
        # Alternatives are separate requirements: OpenAPI reads the list as "any one of".
        alternatives = (needed,) if isinstance(needed, str) else needed
        return [{scheme: [scope]} for scope in alternatives for scheme in ("oauth2", "bearerToken")]

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


def _error_response(description: str, code: str, message: str, **extra: Any) -> dict[str, Any]:
    example = {"error": {"code": code, "message": message, **extra}}
    return {
        "description": description,
        "content": {
            "application/json": {
                "schema": {"$ref": "#/components/schemas/Error"},
                "examples": {code: {"value": example, "summary": code}},
            }
        },
    }


def enumerate_error_codes(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """The error body's `code` is one of `api.errors.error_codes()`: the schema lists them."""
    detail = result["components"]["schemas"]["ErrorDetail"]["properties"]["code"]
    detail["enum"] = sorted(error_codes())
    return result


def document_shared_refusals(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Add the answers every operation can give, where a view did not document them itself.

    A scoped operation may meet a dead token (401) or one without its scope (403
    `missing-scope`); every one may be throttled (429); a paginated list answers a
    page past the end or `page=0` with 404 `not-found`. (A drf-spectacular
    postprocessing hook, after the views' own `extend_schema` responses.)
    """
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            scoped = any(
                scopes
                for requirement in operation.get("security", [])
                for scopes in requirement.values()
            )
            if scoped:
                responses.setdefault(
                    "401",
                    _error_response(
                        "An unknown, revoked or expired token.",
                        "authentication-failed",
                        "Unknown or revoked API token.",
                    ),
                )
                responses.setdefault(
                    "403",
                    _error_response(
                        "The token lacks this operation's scope.",
                        "missing-scope",
                        "This token lacks the scope 'game:play', which this request needs.",
                        scope="game:play",
                    ),
                )
            responses.setdefault(
                "429",
                _error_response(
                    "Too many requests; see the Retry-After and RateLimit-* headers.",
                    "throttled",
                    "Request was throttled. Expected available in 42 seconds.",
                    retry_after_seconds=42,
                ),
            )
            if any(
                parameter.get("name") == "page" for parameter in operation.get("parameters", [])
            ):
                responses.setdefault(
                    "404",
                    _error_response(
                        "A page past the end, or page=0.",
                        "not-found",
                        "Invalid page.",
                    ),
                )
    return result
