"""A club and its members, each with a role."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    DIRECTOR = "director", "director"  # runs the club's tournaments and leagues
    MEMBER = "member", "member"  # reads the club's leagues


class Visibility(models.TextChoices):
    """Who outside the club sees its tournaments and tables (``clubs.access``)."""

    MEMBERS = "members", _("members only")  # the default: nothing shows until the club opens it
    PUBLIC = "public", _("every signed-in player")


class Club(models.Model):
    """A card club or league organiser."""

    name = models.CharField(max_length=80, unique=True)
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.MEMBERS
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """One account's role in one club (an account has at most one role per club)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_one_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.role} of {self.club_id}"
