"""The callers of the desk pages' tests, signed in with Django's test client: staff, a
director of club A, a director of club B, a member of club A, anonymous."""

from __future__ import annotations

from django.test import Client

from tests.leagues.world import World


def desk_client(world: World, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(world.players[role].user)
    return client


def error_beside(html: str, field_id: str) -> str:
    """The error text shown beside the field ``field_id`` (empty if none)."""
    marker = f'id="{field_id}-error">'
    if marker not in html:
        return ""
    return html.split(marker, 1)[1].split("</span>", 1)[0]
