"""The hand's life through the services, without workers: tasks are called directly."""

from __future__ import annotations

import pytest

from games import selectors
from games.fair_dealing import seed_check
from games.models import Hand, HandStatus, Seat, TableEvent
from games.selectors import table_detail, table_read
from games.services import hands
from games.services.seating import seat_sit
from tests.games.factories import make_player, make_table

pytestmark = pytest.mark.django_db


def _total_chips(table_id: int) -> int:
    hand = Hand.objects.filter(table_id=table_id, status=HandStatus.RUNNING).first()
    seats = {s.number: s.stack for s in Seat.objects.filter(table_id=table_id)}
    if hand is None:
        return sum(seats.values())
    state = selectors.hand_state(hand)
    for entry, p in zip(hand.lineup, state.players, strict=True):
        seats[entry["seat"]] = p.stack + p.total_in
    return sum(seats.values())


def test_bots_play_whole_hands_and_chips_are_conserved():
    table = make_table()
    for n, kind in enumerate(["random", "station", "rules"], start=1):
        seat_sit(
            table_id=table.id,
            player=make_player(bot=kind),
            seat_number=n,
            buy_in=200,
            by_staff=True,
        )
    played = 0
    while played < 20:
        result = hands.table_advance(table.id)
        if result == "waiting for players":  # two bots went broke and left
            break
        assert result == "hand finished"
        played += 1
        assert _total_chips(table.id) == 600  # a busted bot leaves with nothing
    finished = Hand.objects.filter(table=table, status=HandStatus.FINISHED)
    assert finished.count() == played >= 1
    for hand in finished:
        assert seed_check(hand, selectors.hand_state(hand))["ok"]
        assert selectors.hand_state_from_events(hand) == selectors.hand_state(hand)


def test_human_decision_waits_with_a_deadline_and_the_view_hides_other_down_cards():
    table = make_table()
    alice, bob = make_player("alice"), make_player("bob")
    seat_sit(table_id=table.id, player=alice, seat_number=1, buy_in=100)
    seat_sit(table_id=table.id, player=bob, seat_number=2, buy_in=100)
    assert hands.table_advance(table.id) == "waiting for a player"
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    assert hand.deadline is not None
    table.refresh_from_db()
    view = table_detail(table_read(table.id), alice)["hand"]["view"]
    mine, theirs = view["players"][0], view["players"][1]
    assert "??" not in mine["down"] and theirs["down"] == ["??", "??"]
    state = selectors.hand_state(hand)
    bob_down = {repr(c) for c in state.players[1].down}
    shown_cards = {
        card
        for player in table_detail(table_read(table.id), alice)["hand"]["view"]["players"]
        for card in player["up"] + player["down"]
    }
    assert not bob_down & shown_cards
    assert TableEvent.objects.filter(table=table).count() == table.seq


def test_a_table_whose_first_advance_task_was_lost_is_woken_by_the_sweep():
    from games import tasks

    table = make_table()
    for n in (1, 2):
        seat_sit(
            table_id=table.id,
            player=make_player(bot="station"),
            seat_number=n,
            buy_in=100,
            by_staff=True,
        )
    table.refresh_from_db()
    assert table.next_hand_at is not None  # the sweep's due time, besides the advance task
    assert tasks.sweep()["woken"] == 1
    hands.table_advance(table.id)  # the woken advance plays the hand
    assert Hand.objects.filter(table=table, status=HandStatus.FINISHED).count() == 1


def test_resume_gives_the_player_to_act_their_full_clock_again():
    # Issue 8, defect 13: a 60 s clock, paused on alice's turn and resumed
    from datetime import timedelta

    from django.utils import timezone

    from games.services.tables import table_set_status

    table = make_table(action_seconds=60)
    alice, bob = make_player("alice"), make_player("bob")
    seat_sit(table_id=table.id, player=alice, seat_number=1, buy_in=100)
    seat_sit(table_id=table.id, player=bob, seat_number=2, buy_in=100)
    assert hands.table_advance(table.id) == "waiting for a player"
    table_set_status(table_id=table.id, status="paused")
    table_set_status(table_id=table.id, status="open")

    assert hands.table_advance(table.id) == "waiting for a player"  # the worker after resume

    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    assert hand.deadline > timezone.now() + timedelta(seconds=55)


def test_after_resume_a_lost_worker_run_never_times_out_the_player_to_act():
    from datetime import timedelta

    from django.utils import timezone

    from games.services.tables import table_set_status

    table = make_table(action_seconds=60)
    for n, name in ((1, "alice"), (2, "bob")):
        seat_sit(table_id=table.id, player=make_player(name), seat_number=n, buy_in=100)
    assert hands.table_advance(table.id) == "waiting for a player"
    table_set_status(table_id=table.id, status="paused")
    table_set_status(table_id=table.id, status="open")
    # the advance task after resume is lost: the worker's grace runs out and the sweep comes
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    assert hands.hand_expire(hand_id=hand.pk, seq=None) == "waiting for a player"

    assert not TableEvent.objects.filter(table=table, kind="timeout").exists()
    hand.refresh_from_db()
    assert hand.deadline > timezone.now() + timedelta(seconds=55)
