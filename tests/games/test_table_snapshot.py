"""A table view is one snapshot, and events come in pages that say whether more follow
(issue 8, defect 14)."""

from __future__ import annotations

import pytest

from api_conventions import rendered
from games import selectors
from games.api import serializers as s
from games.models import Hand, HandStatus, Table
from games.services import hands
from games.services.seating import seat_sit
from tests.games.factories import make_player, make_table
from tests.games.interleave import between_the_table_and_its_hand
from tests.games.test_api_support import client_for, table_url

pytestmark = pytest.mark.django_db


def _two_humans():
    table = make_table()
    alice, bob = make_player("alice"), make_player("bob")
    seat_sit(table_id=table.id, player=alice, seat_number=1, buy_in=100)
    seat_sit(table_id=table.id, player=bob, seat_number=2, buy_in=100)
    assert hands.table_advance(table.id) == "waiting for a player"
    return table, alice, bob


def _act_for_the_player_to_act(table: Table, players) -> None:
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    state = selectors.hand_state(hand)
    actor = players[state.candidates[0]]
    option = state.legal_actions()[-1] if state.phase == "bring_in" else state.legal_actions()[0]
    hands.hand_act(table_id=table.id, player=actor, action=option.action, amount=None, seq=None)


def test_a_table_view_read_while_a_player_acts_shows_the_seq_of_what_it_shows(monkeypatch):
    # Given a table where a player acts after the view read the table's seq but before it
    # read the hand (what a busy server does)
    table, alice, bob = _two_humans()
    acted = []

    def act_once(table_id):
        if not acted:
            acted.append(True)
            _act_for_the_player_to_act(table, [alice, bob])

    between_the_table_and_its_hand(monkeypatch, act_once)

    # When alice fetches the table
    response = client_for(alice).get(table_url(table))

    # Then the seq she is shown is the one of the state she is shown: acting with it works
    assert acted  # (the action did come between the reads)
    body = response.json()
    table.refresh_from_db()
    assert body["seq"] == table.seq
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    assert body["hand"]["view"]["to_act"] == list(selectors.hand_state(hand).candidates)


def test_events_come_in_pages_that_say_whether_more_follow():
    table, alice, _bob = _two_humans()
    table.refresh_from_db()
    total = table.seq
    client = client_for(alice)

    seen = []
    after = 0
    pages = 0
    while True:
        body = client.get(table_url(table, "events"), {"after": after, "limit": 4}).json()
        pages += 1
        assert body["seq"] == total
        assert len(body["events"]) <= 4
        seen += [event["seq"] for event in body["events"]]
        after = body["next_after"]
        if not body["has_more"]:
            break

    assert seen == list(range(1, total + 1))
    assert pages == -(-total // 4)
    assert after == total


def test_an_empty_events_page_keeps_the_after_it_was_asked_for():
    table, alice, _bob = _two_humans()
    table.refresh_from_db()

    body = client_for(alice).get(table_url(table, "events"), {"after": table.seq}).json()

    assert body == {"seq": table.seq, "events": [], "has_more": False, "next_after": table.seq}


def test_the_table_view_shows_the_table_fields_as_the_table_list_does():
    # The view renders the table's fields straight from the model in one serializer pass
    # (bench load: every poll comes here); they must read as the list's and the create's.
    table, alice, _bob = _two_humans()
    client = client_for(alice)

    detail = client.get(table_url(table)).json()
    listed = next(t for t in client.get("/api/v1/tables/").json()["results"] if t["id"] == table.id)

    assert {k: detail[k] for k in s.TABLE_FIELDS} == {k: listed[k] for k in s.TABLE_FIELDS}
    assert detail["seq"] == Table.objects.get(pk=table.id).seq


def test_a_reused_serializer_renders_every_view_as_a_fresh_one_does():
    """Table views and event pages come from one serializer built per thread
    (``api_conventions.rendered``): every answer of a whole hand, for each player and
    an observer, is the one a freshly built serializer gives."""
    table, alice, bob = _two_humans()
    seen = 0
    while Hand.objects.filter(table=table, status=HandStatus.RUNNING).exists():
        for viewer in (alice, bob, None):
            table_now, detail = selectors.table_snapshot(table.id, viewer)
            body = {**{name: getattr(table_now, name) for name in s.TABLE_FIELDS}, **detail}
            assert rendered(s.TableDetailOutputSerializer, body) == (
                s.TableDetailOutputSerializer(body).data
            )
            page = selectors.table_events(table_now, viewer, after=0, limit=500)
            assert rendered(s.EventsOutputSerializer, page) == s.EventsOutputSerializer(page).data
            seen += 1
        hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
        if selectors.hand_state(hand).candidates:
            _act_for_the_player_to_act(table, [alice, bob])
        else:
            hands.table_advance(table.id)  # what the worker does next
    assert seen >= 9
