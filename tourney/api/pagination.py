"""Paged lists of the tournaments API: ``{"count", "next", "previous", "results"}``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response


class Pages(PageNumberPagination):
    """``?page=`` and ``?page_size=`` (at most 500; 100 by default): no list is cut short,
    the next page is always linked."""

    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500


def paginate(request: Request, view: Any, rows: Sequence[Any], serializer: Any) -> Response:
    """One page of ``rows`` (the caller checked the query)."""
    pages = Pages()
    page = pages.paginate_queryset(rows, request, view=view)
    return pages.get_paginated_response(serializer(page, many=True).data)
