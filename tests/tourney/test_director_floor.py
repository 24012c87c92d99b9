"""The director's floor: move, swap, lock, late entry at a chosen seat; refusals change
nothing."""

from __future__ import annotations

import pytest

from games.errors import Conflict, Invalid, NotFound
from tests.games.factories import make_player
from tests.tourney.director import entry_at, hand_in_progress, snapshot, started
from tests.tourney.tournaments import events, fake_hand, seats_of, table_of
from tourney.models import Entry, Move
from tourney.services.commands.director_floor import (
    floor_late_entry,
    floor_lock,
    floor_move,
    floor_swap,
)
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _free_seat(tournament, number: int) -> int:
    table = table_of(tournament, number)
    return min(set(range(1, table.seat_count + 1)) - set(seats_of(table.id)))


def test_a_move_takes_the_chips_along_and_is_logged_and_recorded():
    tournament = started(players=9)  # 5 and 4: one from table 1 to table 2 stays balanced
    seat = min(seats_of(table_of(tournament, 1).id))
    entry = entry_at(tournament, 1, seat)
    chips = seats_of(table_of(tournament, 1).id)[seat][1]
    to_seat = _free_seat(tournament, 2)
    move = floor_move(tournament_id=tournament.id, entry_id=entry.id, table=2, seat=to_seat)
    assert seats_of(table_of(tournament, 2).id)[to_seat] == (entry.player_id, chips)
    assert (move.reason, move.status, move.to_table, move.to_seat) == (
        "director",
        "applied",
        2,
        to_seat,
    )
    assert events(tournament, "director_move")[0]["entry"] == entry.id


def test_balancing_takes_a_manual_move_into_account():
    # 5 and 5: moving one from table 1 to table 2 makes 4 and 6, within the threshold of 1?
    # no: 6 - 4 = 2 > 1, so balancing moves a player back from table 2 (not the one moved
    # once the director locks them)
    tournament = started(players=10)
    seat = min(seats_of(table_of(tournament, 1).id))
    entry = entry_at(tournament, 1, seat)
    floor_lock(tournament_id=tournament.id, entry_id=entry.id, locked=True)
    to_seat = _free_seat(tournament, 2)
    floor_move(tournament_id=tournament.id, entry_id=entry.id, table=2, seat=to_seat)
    counts = sorted(len(seats_of(table_of(tournament, n).id)) for n in (1, 2))
    assert counts == [5, 5]
    assert seats_of(table_of(tournament, 2).id)[to_seat][0] == entry.player_id
    balance = Move.objects.filter(tournament=tournament, reason="balance").get()
    assert balance.entry_id != entry.id and balance.from_table == 2


def test_a_locked_player_is_never_moved_by_balancing():
    tournament = started(players=15)  # 8 and 7
    table1 = table_of(tournament, 1)
    seats = sorted(seats_of(table1.id))
    for seat in seats:
        floor_lock(
            tournament_id=tournament.id, entry_id=entry_at(tournament, 1, seat).id, locked=True
        )
    # two busts at table 2 (8 and 5): table 1 should give a player, but every seat is locked
    table2 = table_of(tournament, 2)
    out = sorted(seats_of(table2.id))[:2]
    stacks = {s: c for s, (_, c) in seats_of(table2.id).items()}
    keep = sorted(seats_of(table2.id))[2]
    fake_hand(
        table2.id, {out[0]: 0, out[1]: 0, keep: stacks[keep] + stacks[out[0]] + stacks[out[1]]}
    )
    tournament_update(tournament_id=tournament.id)
    assert not Move.objects.filter(tournament=tournament, reason="balance").exists()
    assert sorted(seats_of(table1.id)) == seats
    # the control: unlock them and balancing moves one of them at once
    for seat in seats:
        floor_lock(
            tournament_id=tournament.id, entry_id=entry_at(tournament, 1, seat).id, locked=False
        )
    assert Move.objects.filter(tournament=tournament, reason="balance", from_table=1).exists()


def test_move_refusals_change_nothing():
    tournament = started(players=10)
    entry = entry_at(tournament, 1, min(seats_of(table_of(tournament, 1).id)))
    taken = min(seats_of(table_of(tournament, 2).id))
    before = snapshot(tournament)
    cases = [
        (dict(table=2, seat=taken), Conflict, "seat_taken"),
        (dict(table=2, seat=9), Invalid, "no_seat"),
        (dict(table=7, seat=1), NotFound, "no_table"),
    ]
    for target, error_type, code in cases:
        with pytest.raises(error_type) as error:
            floor_move(tournament_id=tournament.id, entry_id=entry.id, **target)
        assert error.value.code == code
    with pytest.raises(NotFound):
        floor_move(tournament_id=tournament.id, entry_id=10**9, table=2, seat=1)
    hand_in_progress(tournament, 2)
    with pytest.raises(Conflict) as error:
        floor_move(
            tournament_id=tournament.id, entry_id=entry.id, table=2, seat=_free_seat(tournament, 2)
        )
    assert error.value.code == "in_hand"
    assert snapshot(tournament) == before


def test_a_move_to_a_broken_table_is_refused():
    tournament = started(players=10)
    table2 = table_of(tournament, 2)
    stacks = seats_of(table2.id)
    seats = sorted(stacks)
    # four of table 2 bust: the six left fit at table 1, so table 2 breaks and closes
    winner = seats[0]
    fake_hand(
        table2.id,
        {
            **{s: 0 for s in seats[1:]},
            winner: sum(c for _, c in stacks.values()),
        },
    )
    tournament_update(tournament_id=tournament.id)
    assert table_of(tournament, 2).status == "closed"
    entry = entry_at(tournament, 1, min(seats_of(table_of(tournament, 1).id)))
    before = snapshot(tournament)
    with pytest.raises(Conflict) as error:
        floor_move(tournament_id=tournament.id, entry_id=entry.id, table=2, seat=1)
    assert error.value.code == "table_broken"
    assert snapshot(tournament) == before


def test_swap_exchanges_seats_and_chips():
    tournament = started(players=10)
    a = entry_at(tournament, 1, min(seats_of(table_of(tournament, 1).id)))
    b = entry_at(tournament, 2, min(seats_of(table_of(tournament, 2).id)))
    seat_a = next(
        (n, c) for n, (p, c) in seats_of(table_of(tournament, 1).id).items() if p == a.player_id
    )
    seat_b = next(
        (n, c) for n, (p, c) in seats_of(table_of(tournament, 2).id).items() if p == b.player_id
    )
    moves = floor_swap(tournament_id=tournament.id, entry_ids=(a.id, b.id))
    assert seats_of(table_of(tournament, 2).id)[seat_b[0]] == (a.player_id, seat_a[1])
    assert seats_of(table_of(tournament, 1).id)[seat_a[0]] == (b.player_id, seat_b[1])
    assert {m.reason for m in moves} == {"swap"}
    with pytest.raises(Invalid):
        floor_swap(tournament_id=tournament.id, entry_ids=(a.id, a.id))


def test_lock_and_unlock_are_logged_and_a_repeat_is_refused():
    tournament = started()
    entry = entry_at(tournament, 1, min(seats_of(table_of(tournament, 1).id)))
    floor_lock(tournament_id=tournament.id, entry_id=entry.id, locked=True)
    with pytest.raises(Conflict):
        floor_lock(tournament_id=tournament.id, entry_id=entry.id, locked=True)
    floor_lock(tournament_id=tournament.id, entry_id=entry.id, locked=False)
    assert [e["locked"] for e in events(tournament, "seat_lock")] == [True, False]
    assert not Entry.objects.get(pk=entry.id).seat_locked


def test_a_late_entrant_sits_where_the_director_says():
    tournament = started(players=10, late_reg_levels=2)
    seat = _free_seat(tournament, 2)
    player = make_player(bot="rules")
    entry = floor_late_entry(tournament_id=tournament.id, player_id=player.id, table=2, seat=seat)
    assert seats_of(table_of(tournament, 2).id)[seat] == (player.id, 1000)
    assert entry.status == "playing"
    assert events(tournament, "late_entry")[0]["seat"] == seat
    tournament.refresh_from_db()
    assert tournament.prize_pool == 1100


def test_a_late_entrant_needs_open_registration_and_a_free_seat():
    tournament = started(players=10)
    before = snapshot(tournament)
    player = make_player(bot="rules")
    with pytest.raises(Conflict) as error:
        floor_late_entry(
            tournament_id=tournament.id,
            player_id=player.id,
            table=2,
            seat=_free_seat(tournament, 2),
        )
    assert error.value.code == "registration_closed"
    with pytest.raises(Conflict):
        floor_late_entry(
            tournament_id=tournament.id,
            player_id=player.id,
            table=2,
            seat=min(seats_of(table_of(tournament, 2).id)),
        )
    assert snapshot(tournament) == before
