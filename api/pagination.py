from collections.abc import Callable, Sequence
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.views import APIView

#: The query parameters of a paginated list, for its schema.
PAGE_PARAMETERS = [
    OpenApiParameter("page", int, required=False),
    OpenApiParameter("page_size", int, required=False),
]


class Pagination(PageNumberPagination):
    """`?page=N&page_size=M`, 20 per page by default, at most 100."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


def page[Row](
    request: Request,
    view: APIView,
    rows: QuerySet[Any, Row] | Sequence[Row],
    entry: Callable[[Row], Any],
) -> dict[str, Any]:
    """The page of `rows` the request asks for, as `Pagination` answers it: `count`, `next`,
    `previous`, and the page's `results`, each row as `entry` shows it (a 404 past the end)."""
    paginator = Pagination()
    rows_here = paginator.paginate_queryset(rows, request, view=view) or []
    return dict(paginator.get_paginated_response([entry(row) for row in rows_here]).data)


def page_of(item: type[serializers.Serializer[Any]]) -> type[serializers.Serializer[Any]]:
    """The schema of one page of `item`s: what `Pagination` answers with."""
    name = item.__name__.removesuffix("Serializer") + "PageSerializer"
    fields = {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": item(many=True),
    }
    return type(name, (serializers.Serializer,), fields)
