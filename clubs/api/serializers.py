"""Input and output serializers of the clubs API (explicit fields)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api_conventions.bodies import BodySerializer
from clubs.models import Role, Visibility

VISIBILITY_HELP = (
    "Who sees the club's tournaments and tables: its members only (the default), or every "
    "signed-in player. Its leagues are always its members' only."
)


class ClubInputSerializer(BodySerializer):
    name = serializers.CharField(max_length=80)
    visibility = serializers.ChoiceField(
        choices=Visibility.choices, default=Visibility.MEMBERS, help_text=VISIBILITY_HELP
    )


class ClubUpdateInputSerializer(BodySerializer):
    """What a club's directors change about their club."""

    visibility = serializers.ChoiceField(choices=Visibility.choices, help_text=VISIBILITY_HELP)


class ClubOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    visibility = serializers.ChoiceField(
        choices=Visibility.choices, read_only=True, help_text=VISIBILITY_HELP
    )
    created_at = serializers.DateTimeField(read_only=True)


class MemberInputSerializer(BodySerializer):
    """The account to add (its username, as in POST /api/v1/players/) and its role."""

    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Role.values, default=Role.MEMBER)


class MemberRoleInputSerializer(BodySerializer):
    """The member's new role."""

    role = serializers.ChoiceField(choices=Role.values)


class MemberOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    club = serializers.IntegerField(source="club_id", read_only=True)
    user = serializers.IntegerField(source="user_id", read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)
    role = serializers.CharField(read_only=True)
    created_at = serializers.DateTimeField(read_only=True)
