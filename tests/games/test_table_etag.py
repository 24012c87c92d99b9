"""Polling a table with its ETag: an empty 304 while nothing the caller would see changed, and
never a 304 that hides a change (issue 13: the poll that finds nothing new is the cheap one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import F

from games import rows, selectors
from games.models import Hand, HandStatus, HoldReason, Player, Seat, Table
from games.services import hands
from games.services.seating import seat_sit
from tests.games.factories import make_player, make_table
from tests.games.test_api_support import client_for, table_url

pytestmark = pytest.mark.django_db


def _two_humans(pause_ms: int = 0) -> tuple[Table, Player, Player]:
    table = make_table(pause_ms=pause_ms)
    alice, bob = make_player("alice"), make_player("bob")
    seat_sit(table_id=table.id, player=alice, seat_number=1, buy_in=100)
    seat_sit(table_id=table.id, player=bob, seat_number=2, buy_in=100)
    assert hands.table_advance(table.id) == "waiting for a player"
    return table, alice, bob


def _act(table: Table, players: list[Player]) -> None:
    """The player to act takes their first option (brings in when it is the bring-in); with
    no hand running, the next one is dealt."""
    hand = Hand.objects.filter(table=table, status=HandStatus.RUNNING).first()
    if hand is None:
        hands.table_advance(table.id)
        return
    state = selectors.hand_state(hand)
    option = state.legal_actions()[-1] if state.phase == "bring_in" else state.legal_actions()[0]
    actor = players[state.candidates[0]]
    hands.hand_act(table_id=table.id, player=actor, action=option.action, amount=None, seq=None)
    hands.table_advance(table.id)


def test_a_poll_with_the_etag_of_the_answer_held_is_an_empty_304() -> None:
    table, alice, _bob = _two_humans()
    client = client_for(alice)

    first = client.get(table_url(table))
    etag = first["ETag"]
    again = client.get(table_url(table), HTTP_IF_NONE_MATCH=etag)
    weakened = client.get(table_url(table), HTTP_IF_NONE_MATCH=f"W/{etag}")
    among_others = client.get(table_url(table), HTTP_IF_NONE_MATCH=f'"other", {etag}')

    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    for response in (again, weakened, among_others):
        assert response.status_code == 304
        assert response.content == b""
        assert response["ETag"] == etag


def test_an_etag_from_another_viewer_gets_the_full_answer() -> None:
    table, alice, bob = _two_humans()
    alices = client_for(alice).get(table_url(table))["ETag"]

    bobs = client_for(bob).get(table_url(table), HTTP_IF_NONE_MATCH=alices)
    observers = client_for(make_player("carol")).get(table_url(table), HTTP_IF_NONE_MATCH=alices)

    assert bobs.status_code == 200 and bobs.json()["hand"]["you"] == 1
    assert observers.status_code == 200 and observers.json()["hand"]["you"] is None
    assert len({alices, bobs["ETag"], observers["ETag"]}) == 3


def test_an_etag_from_another_language_gets_the_full_answer() -> None:
    table, alice, _bob = _two_humans()
    english = client_for(alice).get(table_url(table), HTTP_ACCEPT_LANGUAGE="en")["ETag"]

    arabic = client_for(alice).get(
        table_url(table), HTTP_ACCEPT_LANGUAGE="ar", HTTP_IF_NONE_MATCH=english
    )

    assert arabic.status_code == 200 and arabic["ETag"] != english
    assert "Accept-Language" in arabic["Vary"]


def _sit_carol(table: Table) -> None:
    seat_sit(table_id=table.id, player=make_player("carol"), seat_number=3, buy_in=100)


CHANGES: dict[str, Callable[[Table, list[Player]], Any]] = {
    "a player acts": _act,
    "a player sits down": lambda table, players: _sit_carol(table),
    "the clock is moved": lambda table, players: Hand.objects.filter(
        table=table, status=HandStatus.RUNNING
    ).update(deadline=None),
    "the tournament's stakes rise": lambda table, players: Table.objects.filter(pk=table.pk).update(
        ante=2
    ),
    "a stack is moved between hands": lambda table, players: Seat.objects.filter(
        table=table, number=2
    ).update(stack=F("stack") + 50),
    "the table is held": lambda table, players: Table.objects.filter(pk=table.pk).update(
        hold_reason=HoldReason.BREAK
    ),
    "a player renames themselves": lambda table, players: Player.objects.filter(
        pk=players[1].pk
    ).update(display_name="robert"),
}


BETWEEN_HANDS = {"a stack is moved between hands"}
"""Changes that show only between hands (during one the stacks shown are the hand's)."""


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_change_the_caller_would_see_ends_the_304s(change: str) -> None:
    table, alice, bob = _two_humans(pause_ms=60_000 if change in BETWEEN_HANDS else 0)
    while change in BETWEEN_HANDS and Hand.objects.filter(status=HandStatus.RUNNING).exists():
        _act(table, [alice, bob])
    client = client_for(alice)
    held = client.get(table_url(table))

    CHANGES[change](table, [alice, bob])
    poll = client.get(table_url(table), HTTP_IF_NONE_MATCH=held["ETag"])

    assert poll.status_code == 200
    assert poll["ETag"] != held["ETag"]
    assert poll.json() != held.json()


def test_through_whole_hands_a_304_never_hides_a_change() -> None:
    # After every action of three hands, both players poll with the ETag of what they hold,
    # then again with the answer's: a 304 must mean a fresh read shows exactly what they hold.
    table, alice, bob = _two_humans()
    clients = {player.pk: client_for(player) for player in (alice, bob)}
    held = {pk: client.get(table_url(table)) for pk, client in clients.items()}
    answers = {200: 0, 304: 0}
    while Hand.objects.filter(table=table).count() <= 3:
        _act(table, [alice, bob])
        for pk, client in clients.items():
            for _poll in range(2):
                poll = client.get(table_url(table), HTTP_IF_NONE_MATCH=held[pk]["ETag"])
                fresh = client.get(table_url(table)).json()
                answers[poll.status_code] += 1
                if poll.status_code == 304:
                    assert fresh == held[pk].json()
                else:
                    assert poll.json() == fresh
                    held[pk] = poll
    assert answers[304] >= answers[200], answers  # every second poll finds nothing new


def test_a_poll_that_finds_nothing_new_makes_no_model_of_the_rows(monkeypatch) -> None:
    # The 304 is answered from the rows' version: neither the table, nor the running hand
    # (its snapshot parsed), nor a seat or player is built (a fifth of a poll's CPU).
    table, alice, _bob = _two_humans()
    client = client_for(alice)
    etag = client.get(table_url(table))["ETag"]

    def never(found: rows.TableRows) -> rows.TableRead:
        raise AssertionError("a 304 built the rows' models")

    monkeypatch.setattr(rows.TableRows, "read", never)
    assert client.get(table_url(table), HTTP_IF_NONE_MATCH=etag).status_code == 304
    with pytest.raises(AssertionError, match="built the rows' models"):
        client.get(table_url(table))  # the full answer does build them
