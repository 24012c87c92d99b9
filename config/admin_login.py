"""The admin's sign-in page, rate-limited like the API's token endpoint.

Staff sign in to /admin/ with a password, which makes that form a target for guessing. Each
attempt (a POST) counts against the same limits as ``POST /api/v1/auth/token/``: per client
address and per username (``games.api.throttles``); over them the answer is 429 with
``Retry-After``.
"""

import math

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, JsonResponse

from config.api_errors import error_body
from config.codes import Code
from games.api.throttles import SIGN_IN_THROTTLES


def admin_login(request: HttpRequest) -> HttpResponse:
    """Django admin's login view behind the sign-in rate limits."""
    if request.method == "POST":
        for throttle_class in SIGN_IN_THROTTLES:
            throttle = throttle_class()
            if not throttle.allow_request(request, None):  # type: ignore[arg-type]
                response = JsonResponse(
                    error_body(
                        Code.THROTTLED,
                        "Too many sign-in attempts: wait for Retry-After seconds, then retry.",
                    ),
                    status=429,
                )
                response["Retry-After"] = str(math.ceil(throttle.wait() or 1))
                return response
    return admin.site.login(request)
