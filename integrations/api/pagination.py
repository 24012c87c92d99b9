"""The one pagination of lists that grow: DRF's page-number shape
``{"count", "next", "previous", "results"}``, ``?page=`` and ``?page_size=`` (at most 200)."""

from rest_framework.pagination import PageNumberPagination


class Page(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
