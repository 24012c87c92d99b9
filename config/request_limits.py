"""A size limit for request bodies, answered in the API's error format.

Django checks ``DATA_UPLOAD_MAX_MEMORY_SIZE`` only when a view reads ``request.body`` or a
form; DRF's parsers read the stream directly, so without this a JSON body of any size is read
into memory. Here a body whose declared length is over the limit is refused before any view
runs: 413 with the limit, and 400 for a Content-Length that is not a number.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from config.api_errors import error_body
from config.codes import Code


class BodySizeLimitMiddleware:
    """Refuse a request body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes (413)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        declared = request.META.get("CONTENT_LENGTH") or "0"
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(declared)
        except ValueError:
            return JsonResponse(
                error_body(
                    Code.BAD_CONTENT_LENGTH,
                    f"Content-Length {declared!r} is not a number of bytes: send the body's "
                    "length in bytes.",
                ),
                status=400,
            )
        if limit is not None and length > limit:
            return JsonResponse(
                error_body(
                    Code.TOO_LARGE,
                    f"The request body is {length} bytes; at most {limit} are accepted: "
                    "send less (split a large request into several).",
                    {"limit": limit, "length": length},
                ),
                status=413,
            )
        return self.get_response(request)
