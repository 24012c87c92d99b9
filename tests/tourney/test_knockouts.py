"""Knockouts and bounties: credit to whoever won the busted player's last chips (equal
parts on a split pot), multi-way busts, bounty money conserved exactly (fixed and
progressive), and the pure rules (tourney.planning.knockouts) against build_pots."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.pots import build_pots
from games.errors import Invalid
from games.models import Seat
from tests.tourney.knockout_hands import record_hand
from tests.tourney.tournaments import events, make_tournament, open_table_ids, play_to_the_end
from tourney.models import Entry, Tournament
from tourney.planning.knockouts import bounty_payments, knockers, last_chip_pot
from tourney.services.commands.draw import tournament_start
from tourney.services.steps.eliminations import _last_finished_hands
from tourney.services.update import tournament_update

# 9-9 loses to the wheel (A-2-3-4-5) that two players hold in different suits: a split pot
SHORT = "9d9h 2c 6d 7h Ks Kd"  # the 2c up: brings in, all in with its ante
WHEEL_1 = "Ah2s 3c 4d 5h 8s Qc"
WHEEL_2 = "Ad2d 3s 4c 5d 8h Qh"
LOSER = "JdJh 6c Tc 7s 7c Ts"  # jacks, tens and sevens
WINNER = "AsAc 4s Js 9s Th Jc"  # aces and jacks
EIGHTS = "8c8d 3h 5c 6s Qd 2h"


def _started(players: int, **overrides) -> tuple[Tournament, int, list[Seat]]:
    tournament = make_tournament(players=players, **overrides)
    tournament_start(tournament_id=tournament.id)
    table_id = open_table_ids(tournament)[0]
    seats = list(Seat.objects.filter(table_id=table_id, player__isnull=False).order_by("number"))
    return tournament, table_id, seats


def _entry(tournament, seat) -> Entry:
    return Entry.objects.get(tournament=tournament, player_id=seat.player_id)


@pytest.mark.django_db
def test_a_split_pot_shares_the_knockout_and_the_fixed_bounty():
    tournament, table_id, (short, one, two) = _started(3, bounty=20)
    tournament.refresh_from_db()
    assert tournament.prize_pool == 3 * (110 - 10 - 20)
    record_hand(
        table_id,
        {short.number: 15, one.number: 1490, two.number: 1495},
        {short.number: SHORT, one.number: WHEEL_1, two.number: WHEEL_2},
    )
    tournament_update(tournament_id=tournament.id)
    busted = _entry(tournament, short)
    assert busted.status == "eliminated"
    for seat in (one, two):
        entry = _entry(tournament, seat)
        assert (entry.knockouts, entry.bounty_won) == (Decimal("0.5000"), 10)
    [bust] = events(tournament, "eliminated")[-1]["busts"]
    assert bust["player"] == short.player_id
    assert sorted((k["player"], k["share"], k["bounty"]) for k in bust["knocked_out_by"]) == sorted(
        [(one.player_id, "1/2", 10), (two.player_id, "1/2", 10)]
    )


@pytest.mark.django_db
def test_a_multi_way_bust_credits_each_knockout_to_the_winner_of_its_last_chips():
    # short brings in all in (15), mid calls all in (25 after the completion to 30): two side
    # pots; the aces win every pot, so both knockouts (and both heads) are theirs
    tournament, table_id, (short, mid, big, other) = _started(
        4, bounty=20, bounty_kind="progressive"
    )
    record_hand(
        table_id,
        {short.number: 15, mid.number: 25, big.number: 1980, other.number: 1980},
        {short.number: SHORT, mid.number: LOSER, big.number: WINNER, other.number: EIGHTS},
        completer=big.number,
    )
    tournament_update(tournament_id=tournament.id)
    assert _entry(tournament, short).status == _entry(tournament, mid).status == "eliminated"
    winner = _entry(tournament, big)
    assert winner.knockouts == Decimal(2)
    # progressive: each head of 20 pays 10 to the pocket and 10 onto the knocker's head
    assert (winner.bounty_won, winner.bounty_gained) == (20, 20)
    assert _entry(tournament, other).knockouts == 0
    [group] = [e for e in events(tournament, "eliminated")][-1:]
    assert {bust["player"] for bust in group["busts"]} == {short.player_id, mid.player_id}
    for bust in group["busts"]:
        assert [k["player"] for k in bust["knocked_out_by"]] == [big.player_id]


@pytest.mark.django_db
def test_the_pass_reads_the_snapshots_of_the_hands_it_credits_in_one_statement():
    """The pass finds the bust hands without their snapshots (a wave of busts is eliminated
    a few tables a pass) and reads those of the busts it eliminates together."""
    tournament, table_id, (short, one, two) = _started(3, bounty=20)
    record_hand(
        table_id,
        {short.number: 15, one.number: 1490, two.number: 1495},
        {short.number: SHORT, one.number: WHEEL_1, two.number: WHEEL_2},
    )
    [hand] = _last_finished_hands([table_id]).values()
    assert "snapshot" in hand.get_deferred_fields()
    with CaptureQueriesContext(connection) as queries:
        tournament_update(tournament_id=tournament.id)
    reads = [q["sql"] for q in queries.captured_queries if '"snapshot"' in q["sql"]]
    assert len(reads) == 1 and reads[0].startswith("SELECT")
    assert _entry(tournament, one).knockouts == Decimal("0.5000")


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["fixed", "progressive"])
def test_bounties_and_prizes_add_up_exactly_to_what_was_paid_in(kind):
    tournament = make_tournament(players=9, bounty=25, bounty_kind=kind, table_size=5)
    tournament_start(tournament_id=tournament.id)
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    entries = list(Entry.objects.filter(tournament=tournament))
    paid_in = sum(tournament.buy_in for _ in entries)
    fees = sum(tournament.fee for _ in entries)
    prizes = sum(e.prize for e in entries)
    bounties = sum(e.bounty_won for e in entries)
    assert prizes == tournament.prize_pool == 9 * 75
    assert bounties == 9 * 25
    assert prizes + bounties + fees == paid_in
    # every elimination was credited in full to somebody
    assert sum(e.knockouts for e in entries) == pytest.approx(Decimal(8), abs=Decimal("0.001"))
    results = {e.id: e for e in entries}
    winner = next(e for e in entries if e.place == 1)
    assert results[winner.id].bounty_won >= 25


@pytest.mark.django_db
def test_bounty_settings_are_checked():
    with pytest.raises(Invalid, match="bounty"):
        make_tournament(buy_in=110, fee=10, bounty=101)
    with pytest.raises(Invalid, match="online"):
        make_tournament(mode="live", bounty=10)


@settings(deadline=None)  # a property, not a timing: machines under load are slow
@given(
    contributions=st.lists(st.integers(0, 200), min_size=2, max_size=8),
    data=st.data(),
)
def test_the_last_chip_pot_is_the_highest_pot_a_live_player_is_eligible_for(contributions, data):
    live = data.draw(
        st.lists(st.booleans(), min_size=len(contributions), max_size=len(contributions))
    )
    player = data.draw(st.integers(0, len(contributions) - 1))
    pots = build_pots(contributions, live)
    if not pots or contributions[player] == 0:
        return
    index = last_chip_pot(contributions, live, player)
    assert 0 <= index < len(pots)
    if live[player]:
        assert index == max(k for k, pot in enumerate(pots) if player in pot.eligible)


def test_knockers_are_the_distinct_winners_of_the_pot_in_award_order():
    awards = [(0, 2), (0, 3), (1, 3), (1, 3)]
    assert knockers(awards, 0, busted=1) == [2, 3]
    assert knockers(awards, 1, busted=1) == [3]


@settings(deadline=None)  # a property, not a timing: machines under load are slow
@given(
    head=st.integers(0, 10**6),
    players=st.integers(1, 6),
    progressive=st.booleans(),
)
def test_bounty_payments_sum_exactly_to_the_head(head, players, progressive):
    payments = bounty_payments(head, list(range(players)), progressive=progressive)
    assert sum(pocket + onto for pocket, onto in payments.values()) == head
    shares = [pocket + onto for pocket, onto in payments.values()]
    assert max(shares) - min(shares) <= 1
