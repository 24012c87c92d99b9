"""The clubs API: staff create clubs; a club's directors add its members; members read
their club. Another club's rows are 404s; a member acting as a director gets a 403."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api_conventions import path_id, refusals, validated
from clubs import selectors, services
from clubs.access import is_staff
from clubs.api import serializers as s


class ClubListCreateApi(APIView):
    """Your clubs (staff: every club); create a club (staff)."""

    @extend_schema(responses={200: s.ClubOutputSerializer(many=True)})
    def get(self, request: Request) -> Response:
        clubs = selectors.clubs_visible(request.user)
        return Response(s.ClubOutputSerializer(clubs, many=True).data)

    @extend_schema(request=s.ClubInputSerializer, responses={201: s.ClubOutputSerializer})
    def post(self, request: Request) -> Response:
        if not is_staff(request.user):
            raise PermissionDenied("only staff create clubs: ask a site admin")
        club = services.club_create(**validated(s.ClubInputSerializer, request.data))
        return Response(s.ClubOutputSerializer(club).data, status=status.HTTP_201_CREATED)


@path_id("club_id")
class ClubDetailApi(APIView):
    """One of your clubs (GET); its directors choose who sees its tournaments and tables
    (PATCH ``visibility``)."""

    @extend_schema(responses={200: s.ClubOutputSerializer})
    def get(self, request: Request, club_id: int) -> Response:
        return Response(s.ClubOutputSerializer(selectors.club_get(request.user, club_id)).data)

    @extend_schema(
        request=s.ClubUpdateInputSerializer,
        responses={200: s.ClubOutputSerializer, **refusals(400, 401, 403, 404)},
    )
    def patch(self, request: Request, club_id: int) -> Response:
        club = selectors.club_get(request.user, club_id, direct=True)
        data = validated(s.ClubUpdateInputSerializer, request.data)
        return Response(s.ClubOutputSerializer(services.club_update(club=club, **data)).data)


@path_id("club_id")
class ClubMembersApi(APIView):
    """The club's members (its members read them); add one (staff or its directors)."""

    @extend_schema(responses={200: s.MemberOutputSerializer(many=True)})
    def get(self, request: Request, club_id: int) -> Response:
        club = selectors.club_get(request.user, club_id)
        return Response(s.MemberOutputSerializer(selectors.members_list(club), many=True).data)

    @extend_schema(request=s.MemberInputSerializer, responses={201: s.MemberOutputSerializer})
    def post(self, request: Request, club_id: int) -> Response:
        club = selectors.club_get(request.user, club_id, direct=True)
        data = validated(s.MemberInputSerializer, request.data)
        member = services.member_add(club_id=club.id, **data)
        return Response(s.MemberOutputSerializer(member).data, status=status.HTTP_201_CREATED)


@path_id("club_id")
@path_id("member_id")
class ClubMemberApi(APIView):
    """One member of the club: its directors (or staff) set the member's role (PATCH) or
    remove them (DELETE); a director cannot demote or remove themselves."""

    @extend_schema(
        request=s.MemberRoleInputSerializer,
        responses={200: s.MemberOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def patch(self, request: Request, club_id: int, member_id: int) -> Response:
        club = selectors.club_get(request.user, club_id, direct=True)
        data = validated(s.MemberRoleInputSerializer, request.data)
        member = services.member_role_set(
            club_id=club.id, member_id=member_id, by=request.user, **data
        )
        return Response(s.MemberOutputSerializer(member).data)

    @extend_schema(request=None, responses={204: None, **refusals(401, 403, 404, 409)})
    def delete(self, request: Request, club_id: int, member_id: int) -> Response:
        club = selectors.club_get(request.user, club_id, direct=True)
        services.member_remove(club_id=club.id, member_id=member_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
