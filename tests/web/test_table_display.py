"""What the table page draws (docs/rules.md 10): cards in dealing order with the down ones marked,
action labels with amounts, stud_8's high and low leaders, the no-low note and the winning
hand named; a tournament player who is away comes back with a button."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import Client

from games.engine.rules import Rules, Variant
from games.engine.views import view_for
from games.models import Seat
from games.services import hands
from games.services.seating import seat_sit
from tests.engine.helpers import STAKES, stacked_hand
from tests.games.factories import make_player, make_table
from tests.tourney.tournaments import make_tournament
from tourney.models import TournamentTable
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.registration import entry_register
from web.tableview import action_buttons, cards_in_order, hand_result


def test_cards_are_drawn_in_dealing_order_with_the_down_cards_marked():
    faces = cards_in_order(["As", "Kd", "2c"], ["9h", "Ts", "Jc", "3d"])
    assert [f.code for f in faces] == ["As", "Kd", "9h", "Ts", "Jc", "3d", "2c"]
    assert [f.down for f in faces] == [True, True, False, False, False, False, True]
    hidden = cards_in_order(["??", "??"], ["Td"])
    assert hidden[0].label == "face-down card, down card" and hidden[2].label == (
        "Ten of diamonds, up card"
    )
    assert hidden[2].rank == "10" and hidden[2].symbol == "♦"


def test_actions_are_labelled_with_their_amounts():
    options = [
        {"action": "fold", "to": 0, "chips": 0},
        {"action": "call", "to": 4, "chips": 3},
        {"action": "raise", "to": 8, "chips": 7},
        {"action": "muck", "to": 0, "chips": 0},
    ]
    labels = [(b["label"], b["amount"]) for b in action_buttons(options)]
    assert labels == [("Fold", 0), ("Call 3", 4), ("Raise to 8", 8), ("Muck", None)]


def test_a_stud_8_result_names_the_winning_hand_and_says_no_low_qualified():
    cards = {0: "KcKh 9h Ts Jc 3d 9c", 1: "8c8d Qs 6h 6s Jd 3c"}
    hand = stacked_hand(Rules(Variant.STUD_8), STAKES, [100, 100], cards)
    hand.play("bring_in", "call", *["check"] * 8)
    hand.act("show")
    public = {
        "id": 7,
        "number": 3,
        "lineup": [{"seat": 1, "name": "Alice"}, {"seat": 2, "name": "Bob"}],
        "view": view_for(hand.state, 1),
    }
    result = hand_result(public)
    assert result["awards"][0]["name"] == "Alice"
    assert result["awards"][0]["hand"] == "two pair, kings and nines"
    assert result["notes"] == ["no low qualified: the high hand takes the whole pot"]
    html = render_to_string("web/play/table_live.html", {"results": [result], "seats": []})
    assert "Alice wins 4 (main pot, high) with" in html
    assert "No low qualified: the high hand takes the whole pot." in html


@pytest.mark.django_db
def test_a_stud_8_table_names_the_high_and_the_low_board():
    table = make_table(variant="stud_8")
    alice, bob = make_player("alice"), make_player("bob", bot="station")
    seat_sit(table_id=table.id, player=alice, seat_number=1, buy_in=200)
    seat_sit(table_id=table.id, player=bob, seat_number=2, buy_in=200, by_staff=True)
    hands.table_advance(table.id)
    client = Client()
    client.force_login(alice.user)
    html = client.get(f"/play/tables/{table.id}/").content.decode()
    assert "High board: <strong>" in html and "Low board: <strong>" in html
    assert "Stud Hi-Lo (8 or better)" in html


@pytest.mark.django_db
def test_an_away_tournament_player_comes_back_with_a_button_and_cannot_leave():
    tournament = make_tournament(players=2)
    alice = make_player("alice")
    entry_register(tournament_id=tournament.id, player_id=alice.id)
    tournament_start(tournament_id=tournament.id)
    table = TournamentTable.objects.get(tournament=tournament).table
    Seat.objects.filter(table=table, player=alice).update(sitting_out=True)  # timed out
    client = Client()
    client.force_login(alice.user)
    html = client.get(f"/play/tables/{table.id}/").content.decode()
    assert "I'm back" in html and "Leave the table" not in html
    client.post(f"/play/tables/{table.id}/sit-in/")
    assert not Seat.objects.get(table=table, player=alice).sitting_out
    refused = client.post(f"/play/tables/{table.id}/leave/", follow=True).content.decode()
    assert "for ring games" in refused
    assert Seat.objects.filter(table=table, player=alice).exists()
