"""One error format for the whole service: ``{"error": {"code", "message", "detail"}}``.

``api_exception_handler`` is DRF's EXCEPTION_HANDLER; the ``*_handler`` views below are
Django's handler400/403/404/500, so URLs outside the API answer in the same JSON shape.
"""

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from config.codes import Code
from refusals import Refusal


def error_body(code: str, message: str, detail: Any = None) -> dict[str, Any]:
    """Build the error payload that every error response carries."""
    return {"error": {"code": code, "message": message, "detail": detail}}


def _as_api_exception(exc: Exception) -> Exception:
    """Turn Django's own exceptions into their DRF counterparts (so none becomes a 500)."""
    if isinstance(exc, Http404):
        return exceptions.NotFound()
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied()
    if isinstance(exc, DjangoValidationError):
        return exceptions.ValidationError(detail=as_serializer_error(exc))
    return exc


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render any API exception as the error payload; unknown exceptions stay 500s."""
    if isinstance(exc, Refusal):
        # A refusal of any app (refusals.Refusal): its status, code and message, nothing changed.
        set_rollback()
        return Response(error_body(exc.code, exc.message, exc.detail), status=exc.status)
    exc = _as_api_exception(exc)
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body(Code.INVALID, _("The request is not valid."), exc.detail)
    else:
        response.data = error_body(exc.default_code, str(exc.detail))
    return response


def bad_request_handler(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """Django handler400: a request Django itself refused (e.g. a bad Host header)."""
    return JsonResponse(error_body(Code.BAD_REQUEST, _("Bad request.")), status=400)


def permission_denied_handler(
    request: HttpRequest, exception: Exception | None = None
) -> JsonResponse:
    """Django handler403."""
    return JsonResponse(error_body(Code.PERMISSION_DENIED, _("Permission denied.")), status=403)


def not_found_handler(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django handler404: no such URL. A browser asking for a page gets a page that leads back
    to the lobby; anything else the error body, pointing at the API root."""
    if "text/html" in request.headers.get("Accept", "") and not request.path.startswith("/api/"):
        missing = Refusal(
            _("There is no page at %(path)s: check the address.") % {"path": request.path}
        )
        return render(request, "web/error.html", {"error": missing}, status=404)
    return JsonResponse(
        error_body(
            Code.NOT_FOUND, _("No such URL."), {"path": request.path, "api_root": "/api/v1/"}
        ),
        status=404,
    )


def server_error_handler(request: HttpRequest) -> JsonResponse:
    """Django handler500: a bug on our side (the traceback is in the server log)."""
    return JsonResponse(error_body(Code.SERVER_ERROR, _("Internal server error.")), status=500)
