"""The odds of Yukon: how often each rule's deals can be won, and the per-deal data set."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.docs import errors
from api.renderers import CSVRenderer, FormatNegotiation, JSONRenderer
from api.serializers.common import validated
from api.serializers.odds import OddsQuerySerializer, OddsSerializer
from games.engine import Rule
from games.models import Game
from games.odds import summary
from ops.replica import reads_from_replica

CSV_HELP = "One row per deal of the sample: " + ", ".join(summary.CSV_COLUMNS) + " (docs/api.md)."


class WinnabilityView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, CSVRenderer]
    content_negotiation_class = FormatNegotiation

    @extend_schema(
        operation_id="stats_winnability",
        summary="How often each rule's deals can be won, measured by the solver on a sample",
        description=(
            "Deals 0, 1, 2, ... of the public development key, each solved within the same "
            "node budget. `range95` is the published figure; `?format=csv` downloads every "
            "deal's verdict, line length and node count (so does `Accept: text/csv`)."
        ),
        parameters=[
            OpenApiParameter(
                "rule", str, enum=Game.Rule.values, required=False, description="One rule only."
            ),
            OpenApiParameter(
                "format", str, enum=["json", "csv"], required=False, description=CSV_HELP
            ),
        ],
        responses={
            (200, "application/json"): OddsSerializer,
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description=CSV_HELP),
            **errors(400),
        },
    )
    @reads_from_replica
    def get(self, request: Request) -> Response:
        query = validated(OddsQuerySerializer, request.query_params)
        rule = Rule.from_letter(query["rule"]) if "rule" in query else None
        # The negotiated renderer decides (`?format=csv` or `Accept: text/csv`): the CSV
        # renderer only knows rows, never the summary.
        if request.accepted_renderer.format == CSVRenderer.format:
            rows: list[Any] = [list(summary.CSV_COLUMNS), *summary.csv_rows(rule)]
            name = f"yukon-winnability{'-' + rule.letter if rule else ''}.csv"
            return Response(rows, headers={"Content-Disposition": f'attachment; filename="{name}"'})
        odds = summary.odds()
        if rule is not None:
            odds["rules"] = [entry for entry in odds["rules"] if entry["rule"] == rule.letter]
        odds["csv"] = f"{request.path}?format=csv"
        return Response(odds)

    def handle_exception(self, exc: Exception) -> Response:
        """Errors answer in JSON, the API's one error shape, also when a CSV was asked for."""
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return super().handle_exception(exc)
