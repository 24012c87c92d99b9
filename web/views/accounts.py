"""The account pages: the owner of a new account sets its password with the one-time link staff
handed over, and a signed-in player changes theirs (``games.services.passwords``, as the API)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from api_conventions.client_address import client_ip
from games.errors import Invalid
from games.services import passwords
from games.services.sign_in import SignInThrottled
from web.views.auth import throttled_page
from web.views.common import refusals_as_pages, sign_in_required

TWICE = gettext_lazy("The two new passwords differ: type the same one twice.")


def _refusal_text(refusal: Invalid) -> str:
    details = refusal.detail if isinstance(refusal.detail, list) else []
    return " ".join([refusal.message[:1].upper() + refusal.message[1:] + ".", *details])


@never_cache
@refusals_as_pages
def set_password(request: HttpRequest, uid: str, token: str) -> HttpResponse:
    """The page behind a set-password link: a link that does not work is a 400 page."""
    user = passwords.password_link_user(uid=uid, token=token)
    error = ""
    if request.method == "POST":
        password = request.POST.get("password", "")
        if password != request.POST.get("password_again", ""):
            error = TWICE
        else:
            try:
                passwords.password_set_by_link(uid=uid, token=token, password=password)
            except Invalid as refusal:
                error = _refusal_text(refusal)
            else:
                messages.success(request, _("Your password is set: sign in with it."))
                return redirect("web:login")
    return render(
        request,
        "web/registration/set_password.html",
        {"username": user.get_username(), "error": error},
        status=400 if error else 200,
    )


@never_cache
@sign_in_required
def change_password(request: HttpRequest) -> HttpResponse:
    """Change the signed-in player's password, given the current one; other sessions and API
    clients are signed out, this one stays."""
    error = ""
    if request.method == "POST":
        new_password = request.POST.get("new_password", "")
        if new_password != request.POST.get("new_password_again", ""):
            error = TWICE
        else:
            try:
                passwords.password_change(
                    user=request.user,
                    old_password=request.POST.get("old_password", ""),
                    new_password=new_password,
                    address=client_ip(request),
                )
            except SignInThrottled as throttled:
                return throttled_page(request, throttled)
            except Invalid as refusal:
                error = _refusal_text(refusal)
            else:
                update_session_auth_hash(request, request.user)
                messages.success(request, _("Your password is changed."))
                return redirect("web:lobby")
    return render(
        request,
        "web/registration/change_password.html",
        {"error": error},
        status=400 if error else 200,
    )
