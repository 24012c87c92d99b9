"""The one pagination of lists that grow: DRF's page-number shape
``{"count", "next", "previous", "results"}``, ``?page=`` and ``?page_size=`` (at most 200).

A generic list view names ``Page`` as its ``pagination_class``; an ``APIView`` names it too
(drf-spectacular then documents its list answer as a page) and answers with ``paginated``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response


class Page(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


def paginated(
    request: Request, view: Any, rows: Sequence[Any], render: Callable[[list[Any]], Any]
) -> Response:
    """The page of ``rows`` the request asks for (``?page=``, ``?page_size=``), its rows
    rendered by ``render`` (only the page's rows: a selector's query is cut to the page)."""
    pages = Page()
    page = pages.paginate_queryset(rows, request, view=view) or []
    return pages.get_paginated_response(render(page))
