"""Passwords over the API: staff make a one-time set-password link for an account created
without one, its owner uses the link, and a player changes their password
(``games.services.passwords``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api_conventions import path_id, refusals, validated
from api_conventions.client_address import client_ip
from games.api import serializers as s
from games.api.permissions import IsStaff
from games.api.views import sign_in_throttled
from games.errors import NotFound
from games.models import Player
from games.services import passwords
from games.services.sign_in import SignInThrottled


@path_id("player_id")
class PasswordLinkCreateApi(APIView):
    """Staff: a one-time link for the owner of an account that has no password yet (created
    without one) to set it; it works once, for ``SET_PASSWORD_LINK_SECONDS``. Hand the
    ``url`` to the owner; staff never learn the password."""

    permission_classes = [IsStaff]

    @extend_schema(
        request=None,
        responses={201: s.PasswordLinkOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, player_id: int) -> Response:
        player = Player.objects.select_related("user").filter(pk=player_id).first()
        if player is None:
            raise NotFound(
                _("no player %(player_id)s: staff list players at /api/v1/players/")
                % {"player_id": player_id}
            )
        link = passwords.password_link_create(player=player)
        page = reverse("web:set-password", kwargs={"uid": link.uid, "token": link.token})
        body = {
            "url": request.build_absolute_uri(page),
            "uid": link.uid,
            "token": link.token,
            "expires_at": link.expires_at,
        }
        return Response(s.PasswordLinkOutputSerializer(body).data, status=status.HTTP_201_CREATED)


class PasswordSetApi(APIView):
    """Set an account's password with its one-time link's ``uid`` and ``token`` (the page
    at the link's ``url`` does the same); the answer is the account's API token."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    @extend_schema(
        request=s.PasswordSetInputSerializer,
        responses={200: s.TokenOutputSerializer, **refusals(400)},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = validated(s.PasswordSetInputSerializer, request.data)
        token = passwords.password_set_by_link(**data)
        return Response(s.TokenOutputSerializer({"token": token}).data)


class PasswordChangeApi(APIView):
    """Change the caller's password, given the current one (wrong ones count against the
    sign-in limits: 429 with Retry-After). The answer is a new API token: the old one, and
    every client using it, is signed out."""

    @extend_schema(
        request=s.PasswordChangeInputSerializer,
        responses={200: s.TokenOutputSerializer, **refusals(400, 401, 429)},
    )
    def post(self, request: Request) -> Response:
        data = validated(s.PasswordChangeInputSerializer, request.data)
        try:
            token = passwords.password_change(user=request.user, address=client_ip(request), **data)
        except SignInThrottled as throttled:
            raise sign_in_throttled(throttled) from throttled
        return Response(s.TokenOutputSerializer({"token": token}).data)
