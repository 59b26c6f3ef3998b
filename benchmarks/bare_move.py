"""A bare move-like endpoint, routed only when YUKON_BENCH_ENDPOINTS=1 (see benchmarks/api_load).

It goes through the same server, middleware, authentication, throttle and
database pool as a real move, and does the same kind of database work without
any game rule: lock one row, write a 2 KB JSON document into it, insert a log
row, answer the document. The gap between it and POST /moves is what the
engine, the service and the serialization of the state cost. It is an API view with
the API's throttle, kept with the benchmarks (the API package holds only what the
service answers); the route is `/bench/bare-move` (yukon_site/urls.py).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from api.throttles import MoveThrottle

if TYPE_CHECKING:
    from api.permissions import SignedInRequest

# Tables of their own (created on first use) so benchmarks never touch real games; their
# names keep the old `ops_` prefix so databases that already have them reuse them.
DDL = """
CREATE TABLE IF NOT EXISTS ops_bench_row (
    id bigint PRIMARY KEY, version integer NOT NULL, doc jsonb NOT NULL
);
CREATE TABLE IF NOT EXISTS ops_bench_log (
    id bigserial PRIMARY KEY, row_id bigint NOT NULL, version integer NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
);
"""
DDL_LOCK_KEY = 0x59554B4F4E  # any constant: serializes the first CREATE TABLE across workers
DOCUMENT = {"columns": [{"face_up": ["10D", "9S", "8H"] * 13, "face_down": 3}] * 7}

_tables_ready = False


class BareMoveSerializer(serializers.Serializer[Any]):
    move = serializers.CharField(max_length=32)
    version = serializers.IntegerField(min_value=0)


def _ensure_tables() -> None:
    global _tables_ready
    if _tables_ready:
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [DDL_LOCK_KEY])
        cursor.execute(DDL)
    _tables_ready = True


def _bare_write(row_id: int, move: str) -> dict[str, Any]:
    """One transaction: locked read, 2 KB JSON update, insert."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT version FROM ops_bench_row WHERE id = %s FOR UPDATE", [row_id])
        row = cursor.fetchone()
        version = (row[0] if row else 0) + 1
        document = {**DOCUMENT, "version": version, "move": move}
        if row is None:
            cursor.execute(
                "INSERT INTO ops_bench_row (id, version, doc) VALUES (%s, %s, %s)"
                " ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc",
                [row_id, version, json.dumps(document)],
            )
        else:
            cursor.execute(
                "UPDATE ops_bench_row SET version = %s, doc = %s WHERE id = %s",
                [version, json.dumps(document), row_id],
            )
        cursor.execute(
            "INSERT INTO ops_bench_log (row_id, version) VALUES (%s, %s)", [row_id, version]
        )
    return document


class BareMoveView(APIView):
    """POST {"move", "version"} like a real move; the row is the caller's own."""

    required_scope = "game:play"

    throttle_classes = [MoveThrottle]

    def post(self, request: SignedInRequest) -> Response:
        spec = BareMoveSerializer(data=request.data)
        spec.is_valid(raise_exception=True)
        _ensure_tables()
        return Response(_bare_write(request.user.pk, spec.validated_data["move"]))
