"""The director's desk: its home page lists the desk's pages (staff and club directors)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from web.views.desk_common import clubs_run, desk_required


@desk_required
def desk_home(request: HttpRequest) -> HttpResponse:
    return render(request, "web/desk/home.html", {"clubs": clubs_run(request.user)})


urlpatterns = [path("desk/", desk_home, name="desk")]
