"""The admin's sign-in page, limited like the API's token endpoint.

Staff sign in to /admin/ with a password, which makes that form a target for guessing. Its
failures count against the same limits as ``POST /api/v1/auth/token/`` (per address and per
username from that address, ``games.services.sign_in``, applied by the authentication
backend); over them the answer is 429 with ``Retry-After``.
"""

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, JsonResponse

from config.api_errors import error_body
from config.codes import Code
from games.services.sign_in import SignInThrottled


def admin_login(request: HttpRequest) -> HttpResponse:
    """Django admin's login view; 429 with Retry-After while the sign-in limits say wait."""
    try:
        return admin.site.login(request)
    except SignInThrottled as throttled:
        response = JsonResponse(
            error_body(
                Code.THROTTLED,
                "Too many failed sign-ins: wait for Retry-After seconds, then retry.",
            ),
            status=429,
        )
        response["Retry-After"] = str(throttled.wait)
        return response
