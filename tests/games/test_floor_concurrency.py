"""Seat offers under concurrency on PostgreSQL: the game's row lock, then its tables' locks,
and the one-pending-offer-per-seat/-per-entry constraints behind them.

Threads release together (see ``run_at_once``); tasks the services would send after commit
are recorded instead, and the tests run the worker's part themselves.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import Count
from django.utils import timezone

from games.errors import Conflict
from games.models import Game, Offer, OfferStatus, Seat
from games.services import offers, schedule, waitlist
from games.services.seating import seat_leave, seat_sit
from tests.games.factories import make_player
from tests.games.floor import fill, fill_table, make_game, pending_offers, seated_ids, tables_of
from tests.games.test_concurrency import run_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 5


@pytest.fixture(autouse=True)
def enqueued(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """Record the tasks the services would send after commit (no broker involved)."""
    sent: dict[str, list[Any]] = {}
    for name in (
        "advance_now",
        "advance_at",
        "expire_later",
        "floor_fill_now",
        "offer_expire_later",
    ):
        calls = sent.setdefault(name, [])
        monkeypatch.setattr(schedule, name, lambda *args, calls=calls: calls.append(args))
    return sent


def assert_floor_invariants(game_id: int) -> None:
    """At most one pending offer per seat and per entry, never for a taken seat, and
    nobody seated twice at the game."""
    game = Game.objects.get(pk=game_id)
    pending = Offer.objects.filter(game=game, status=OfferStatus.PENDING)
    assert not pending.values("table", "seat").annotate(n=Count("id")).filter(n__gt=1).exists()
    assert not pending.values("entry").annotate(n=Count("id")).filter(n__gt=1).exists()
    for offer in pending:
        assert Seat.objects.get(table_id=offer.table_id, number=offer.seat).player_id is None
    seated = seated_ids(game)
    assert len(seated) == len(set(seated))


def test_two_seats_opening_at_once_go_to_two_names():
    game = make_game(tables=2)
    one, two = tables_of(game)
    at_one, at_two = fill_table(one), fill_table(two, prefix="q")
    entries = [waitlist.entry_join(game_id=game.id, player=make_player()) for _ in range(3)]

    run_at_once(
        [
            lambda: seat_leave(table_id=one.id, player=at_one[0]),
            lambda: seat_leave(table_id=two.id, player=at_two[0]),
        ]
    )
    results = run_at_once([lambda: fill(game)] * 4)  # the two seats' tasks, and duplicates

    assert sum(r.offered for r in results) == 2, results
    made = pending_offers(game)
    assert sorted(o.entry_id for o in made) == [entries[0].id, entries[1].id]
    assert sorted((o.table_id, o.seat) for o in made) == [(one.id, 1), (two.id, 1)]
    assert_floor_invariants(game.id)


def test_two_accepts_of_one_offer_take_one_seat():
    for _ in range(ROUNDS):
        _two_accepts_of_one_offer()


def _two_accepts_of_one_offer() -> None:
    game = make_game()
    table = tables_of(game)[0]
    seated = fill_table(table, prefix=f"g{game.id}-")
    alice = make_player()
    entry = waitlist.entry_join(game_id=game.id, player=alice)
    seat_leave(table_id=table.id, player=seated[0])
    fill(game)
    staff = make_player(staff=True)

    outcomes = run_at_once(
        [
            lambda: offers.offer_accept(entry_id=entry.id, caller=alice, staff=False, buy_in=100),
            lambda: offers.offer_accept(entry_id=entry.id, caller=staff, staff=True, buy_in=200),
        ]
    )

    taken = [o for o in outcomes if isinstance(o, Offer)]
    refused = [o for o in outcomes if isinstance(o, Conflict)]
    assert (len(taken), len(refused)) == (1, 1), outcomes
    assert refused[0].code in ("no_offer", "already_seated")
    assert list(Seat.objects.filter(player=alice).values_list("table", "number")) == [(table.id, 1)]
    assert_floor_invariants(game.id)


def test_an_accept_racing_its_expiry_either_seats_the_player_or_calls_the_next_name():
    # deadlines from "already due when the accept arrives" to "long after it": both outcomes
    results = [_accept_racing_expiry(ms) for ms in (0, 10, 20, 40, 60, 80, 120, 160, 240, 320)]
    assert set(results) <= {OfferStatus.ACCEPTED, OfferStatus.EXPIRED}


def _accept_racing_expiry(ms: int) -> str:
    game = make_game()
    table = tables_of(game)[0]
    seated = fill_table(table, prefix=f"g{game.id}-")
    alice, bob = make_player(), make_player()
    entry = waitlist.entry_join(game_id=game.id, player=alice)
    waitlist.entry_join(game_id=game.id, player=bob)
    seat_leave(table_id=table.id, player=seated[0])
    fill(game)
    [offer] = pending_offers(game)
    # due in a few milliseconds: the accept and the timer race for it
    Offer.objects.filter(pk=offer.pk).update(expires_at=timezone.now() + timedelta(milliseconds=ms))

    def expire_when_due(offer_id: int = offer.id) -> str:
        while timezone.now() < Offer.objects.get(pk=offer_id).expires_at:
            pass
        return offers.offer_expire(offer_id=offer_id)

    accepted, expired = run_at_once(
        [
            lambda: offers.offer_accept(entry_id=entry.id, caller=alice, staff=False, buy_in=100),
            expire_when_due,
        ]
    )

    offer.refresh_from_db()
    seat = Seat.objects.get(table=table, number=1)
    if isinstance(accepted, Offer):
        assert offer.status == OfferStatus.ACCEPTED and expired == "offer accepted"
        assert seat.player_id == alice.id
        assert pending_offers(game) == []
    else:
        assert isinstance(accepted, Conflict) and accepted.code == "offer_expired"
        assert offer.status == OfferStatus.EXPIRED and expired == "expired"
        assert seat.player_id is None
        assert [o.entry.player_id for o in pending_offers(game)] == [bob.id]
    assert_floor_invariants(game.id)
    return offer.status


def test_a_direct_sit_racing_the_offer_for_the_same_seat_never_leaves_an_offer_on_a_taken_seat():
    for _ in range(ROUNDS):
        _direct_sit_racing_the_offer()


def _direct_sit_racing_the_offer() -> None:
    game = make_game()
    table = tables_of(game)[0]
    seated = fill_table(table, prefix=f"g{game.id}-")
    waitlist.entry_join(game_id=game.id, player=make_player())
    seat_leave(table_id=table.id, player=seated[0])
    stranger = make_player(staff=True)  # staff may seat past the list, not on a held seat

    outcomes = run_at_once(
        [
            lambda: fill(game),
            lambda: seat_sit(
                table_id=table.id, player=stranger, seat_number=1, buy_in=100, by_staff=True
            ),
        ]
    )

    seat = Seat.objects.get(table=table, number=1)
    if isinstance(outcomes[1], Conflict):
        assert outcomes[1].code == "seat_offered" and seat.player_id is None
        assert len(pending_offers(game)) == 1
    else:
        assert seat.player_id == stranger.id and pending_offers(game) == []
    assert_floor_invariants(game.id)
