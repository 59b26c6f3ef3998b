from typing import Any

from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    """`?page=N&page_size=M`, 20 per page by default, at most 100."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


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
