"""Tournament tables: no walking out with chips, and away players stay dealt in
(issue 8, defects 2 and 8; docs/rules.md 9)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors
from games.models import Hand, HandStatus, Seat, Table, TableEvent
from games.services import hands
from games.services.seating import seat_sit
from tests.games.factories import make_player, make_table
from tests.games.test_api_support import client_for, table_url

pytestmark = pytest.mark.django_db


def _tournament_table(*, human_seat: int = 1):
    """A tournament table with a human and two calling-station bots, 1,000 chips each,
    seated as the tournament seats them (directly on the seats)."""
    table = make_table(kind="tournament", buy_in_min=0, buy_in_max=0)
    human = make_player("human")
    players = {human_seat: human}
    for number in (n for n in (1, 2, 3) if n != human_seat):
        players[number] = make_player(bot="station")
    for number, player in players.items():
        Seat.objects.filter(table=table, number=number).update(player=player, stack=1000)
    return table, human


def _state_of(table: Table) -> tuple[int, list[tuple[int, int, bool]]]:
    table.refresh_from_db()
    seats = Seat.objects.filter(table=table).order_by("number")
    return table.seq, [(s.number, s.stack, s.sitting_out) for s in seats]


@pytest.mark.parametrize("action", ["leave", "sit-out"])
def test_leaving_or_sitting_out_at_a_tournament_table_is_refused_and_changes_nothing(action):
    table, human = _tournament_table()
    hands.table_advance(table.id)  # a hand is running or not: refused either way
    before = _state_of(table)

    response = client_for(human).post(table_url(table, action))

    assert response.status_code == 409, response.json()
    error = response.json()["error"]
    assert error["code"] == "tournament_table"
    assert "back/" in error["message"]
    assert _state_of(table) == before


def test_leaving_a_tournament_table_between_hands_is_refused_too():
    table, human = _tournament_table()
    before = _state_of(table)

    response = client_for(human).post(table_url(table, "leave"))

    assert response.status_code == 409
    assert _state_of(table) == before
    assert Seat.objects.get(table=table, number=1).player == human


def test_sitting_down_with_a_buy_in_at_a_tournament_table_is_a_409():
    table, _human = _tournament_table()
    Seat.objects.filter(table=table, number=3).update(player=None, stack=0)
    newcomer = make_player("newcomer")
    before = _state_of(table)

    response = client_for(newcomer).post(
        table_url(table, "sit"), {"seat": 3, "buy_in": 500}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "tournament_table"
    assert _state_of(table) == before


def _time_out_the_human(table: Table, human) -> Hand:
    """Advance until the human is to act, then let their clock run out."""
    for _ in range(50):
        result = hands.table_advance(table.id)
        if result == "waiting for a player":
            break
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    # the rest of the hand plays the away human at once: no clock starts for them again
    assert hands.hand_expire(hand_id=hand.pk, seq=None) == "hand finished"
    assert TableEvent.objects.filter(table=table, kind="timeout").count() == 1
    return hand


def test_a_tournament_player_who_times_out_is_away_and_folded_at_once_every_hand():
    # Given a tournament table where the human's clock ran out once
    table, human = _tournament_table()
    timed_out = _time_out_the_human(table, human)

    # Then they are away: every later decision of theirs is taken at once, without a clock
    assert Seat.objects.get(table=table, player=human).sitting_out is True
    for _ in range(3):
        assert hands.table_advance(table.id) == "hand finished"
    later = Hand.objects.filter(table=table, pk__gt=timed_out.pk).order_by("pk")
    assert later.count() >= 3
    for hand in later:
        # they stay dealt in and post their ante (TDA 30)
        index = [entry["player"] for entry in hand.lineup].index(human.id)
        antes = hand.events.filter(kind="ante").values_list("data", flat=True)
        assert any(data["player"] == index for data in antes)


def test_a_tournament_player_who_comes_back_decides_again_with_a_clock():
    table, human = _tournament_table()
    _time_out_the_human(table, human)
    hands.table_advance(table.id)  # the rest of that hand, played for them

    response = client_for(human).post(table_url(table, "back"))

    assert response.status_code == 200, response.json()
    assert Seat.objects.get(table=table, player=human).sitting_out is False
    # the next hand waits for them again (bots call and check, so they get a decision)
    for _ in range(5):
        if hands.table_advance(table.id) == "waiting for a player":
            break
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    assert hand.deadline is not None
    assert selectors.hand_state(hand).candidates[0] == [e["player"] for e in hand.lineup].index(
        human.id
    )


def test_a_ring_player_who_times_out_still_sits_out_from_the_next_hand():
    table = make_table()
    human = make_player("human")
    seat_sit(table_id=table.id, player=human, seat_number=1, buy_in=200)
    for number in (2, 3):
        bot = make_player(bot="station")
        seat_sit(table_id=table.id, player=bot, seat_number=number, buy_in=200, by_staff=True)
    _time_out_the_human(table, human)
    hands.table_advance(table.id)

    hands.table_advance(table.id)

    assert Seat.objects.get(table=table, player=human).sitting_out is True
    last = Hand.objects.filter(table=table).order_by("-pk").first()
    assert human.id not in [entry["player"] for entry in last.lineup]
