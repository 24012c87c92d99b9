"""The first-run page (``web.first_run``) and the site's root, which leads people to the lobby."""

from __future__ import annotations

from django import forms
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _

from games.errors import Conflict
from refusals import Refusal
from web.first_run import first_staff_create, token_valid


def root(request: HttpRequest) -> HttpResponse:
    """``/``: the lobby (it offers the sign-in to visitors)."""
    return redirect("web:lobby")


class FirstStaffForm(forms.Form):
    token = forms.CharField(widget=forms.HiddenInput)
    username = forms.CharField(max_length=150, label=_("Username"))
    display_name = forms.CharField(max_length=64, label=_("Your name as players see it"))
    password = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}), label=_("Password")
    )
    password_again = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        label=_("The password again"),
    )

    def clean(self) -> dict[str, str]:
        data = super().clean() or {}
        if data.get("password") != data.get("password_again"):
            self.add_error("password_again", _("The two passwords differ: type the same twice."))
        return data


def setup(request: HttpRequest) -> HttpResponse:
    """Make the first staff account: a 404 without the token ``manage.py first_run`` printed,
    and for good once a staff account exists."""
    token = request.POST.get("token") or request.GET.get("token") or ""
    if not token_valid(token):
        raise Http404("no setup here: sign in, or ask whoever runs the service")
    form = FirstStaffForm(request.POST or None, initial={"token": token})
    if request.method == "POST" and form.is_valid():
        try:
            player = first_staff_create(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password"],
                display_name=form.cleaned_data["display_name"],
            )
        except Conflict as taken:
            form.add_error("username", taken.message)
        except Refusal as weak:  # the password validators' reasons are its detail
            form.add_error("password", [weak.message, *(weak.detail or [])])
        else:
            login(request, player.user)  # the one backend: settings.AUTHENTICATION_BACKENDS
            return redirect("web:console")
    return render(request, "web/registration/setup.html", {"form": form})
