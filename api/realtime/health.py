"""`GET /healthz/sockets`: this process's open websockets, for operators and the soak tests.

Read without a database round trip or the event loop (counters only), so it answers while
the sockets misbehave: a count that does not come back down is a socket whose consumer
outlived its connection.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from api.realtime.fanout import members_count
from api.realtime.limits import open_sockets


def sockets(request: HttpRequest) -> JsonResponse:
    counts = dict(open_sockets.clients)
    return JsonResponse(
        {"open": sum(counts.values()), "clients": len(counts), "fanout_members": members_count()}
    )
