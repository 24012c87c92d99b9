"""Seat offers: a seat that opens goes to the next name, with a deadline; accepting seats
the player, declining or letting it expire calls the next name."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import Conflict, Forbidden, Invalid
from games.models import EntryStatus, Offer, OfferStatus, Seat, TableEvent
from games.services import offers, waitlist
from games.services.seating import seat_leave, seat_sit
from tests.games.factories import make_player
from tests.games.floor import fill, fill_table, make_game, pending_offers, tables_of, waiting

pytestmark = pytest.mark.django_db


def _full_game_with_list(names: int = 3):  # type: ignore[no-untyped-def]
    game = make_game()
    table = tables_of(game)[0]
    seated = fill_table(table)
    listed = [make_player(f"w{k}") for k in range(names)]
    entries = [waitlist.entry_join(game_id=game.id, player=p) for p in listed]
    return game, table, seated, listed, entries


def test_a_seat_that_opens_is_offered_to_the_first_name_with_a_deadline():
    game, table, seated, _, entries = _full_game_with_list()
    assert fill(game).offered == 0  # no seat is free

    seat_leave(table_id=table.id, player=seated[1])
    before = timezone.now()
    fill(game)

    [offer] = pending_offers(game)
    assert (offer.entry_id, offer.table_id, offer.seat) == (entries[0].id, table.id, 2)
    assert (
        before + timedelta(seconds=59) < offer.expires_at <= timezone.now() + timedelta(seconds=60)
    )
    assert offer.opened_at <= offer.created_at


def test_a_held_seat_cannot_be_taken_directly_even_by_staff():
    game, table, seated, _, _ = _full_game_with_list()
    seat_leave(table_id=table.id, player=seated[0])
    fill(game)
    with pytest.raises(Conflict) as refused:
        seat_sit(table_id=table.id, player=make_player(), seat_number=1, buy_in=100, by_staff=True)
    assert refused.value.code == "seat_offered"
    assert Seat.objects.get(table=table, number=1).player_id is None


def test_nobody_sits_past_the_list_while_names_wait():
    _, table, seated, _, _ = _full_game_with_list()
    seat_leave(table_id=table.id, player=seated[0])  # the worker has not called a name yet
    with pytest.raises(Conflict) as refused:
        seat_sit(table_id=table.id, player=make_player(), seat_number=1, buy_in=100)
    assert refused.value.code == "wait_list"
    assert Seat.objects.get(table=table, number=1).player_id is None


def test_accepting_seats_the_player_and_takes_them_off_the_list():
    game, table, seated, listed, entries = _full_game_with_list()
    seat_leave(table_id=table.id, player=seated[2])
    fill(game)

    offers.offer_accept(entry_id=entries[0].id, caller=listed[0], staff=False, buy_in=200)

    seat = Seat.objects.get(table=table, number=3)
    assert (seat.player_id, seat.stack) == (listed[0].id, 200)
    assert [e.id for e in waiting(game)] == [entries[1].id, entries[2].id]
    assert pending_offers(game) == []


def test_a_refused_accept_changes_nothing():
    game, table, seated, listed, entries = _full_game_with_list()
    seat_leave(table_id=table.id, player=seated[2])
    fill(game)
    [offer] = pending_offers(game)

    with pytest.raises(Invalid) as outside:
        offers.offer_accept(entry_id=entries[0].id, caller=listed[0], staff=False, buy_in=5000)
    with pytest.raises(Forbidden) as others:
        offers.offer_accept(entry_id=entries[0].id, caller=listed[1], staff=False, buy_in=100)
    with pytest.raises(Conflict) as none:
        offers.offer_accept(entry_id=entries[1].id, caller=listed[1], staff=False, buy_in=100)

    assert (outside.value.code, others.value.code, none.value.code) == (
        "buy_in_range",
        "not_your_entry",
        "no_offer",
    )
    assert pending_offers(game) == [offer]
    assert Seat.objects.get(table=table, number=3).player_id is None
    assert [e.id for e in waiting(game)] == [e.id for e in entries]


def test_declining_calls_the_next_name_and_the_decliner_keeps_their_place_once():
    game, table, seated, listed, entries = _full_game_with_list()
    seat_leave(table_id=table.id, player=seated[0])
    fill(game)

    offers.offer_decline(entry_id=entries[0].id, caller=listed[0], staff=False)

    [offer] = pending_offers(game)
    assert offer.entry_id == entries[1].id
    assert [e.id for e in waiting(game)] == [e.id for e in entries]  # first keeps the place
    assert waiting(game)[0].misses == 1


def test_an_expired_offer_calls_the_next_name_and_a_second_miss_drops_the_name():
    game, table, seated, listed, entries = _full_game_with_list()
    seat_leave(table_id=table.id, player=seated[0])
    fill(game)
    Offer.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    [first] = pending_offers(game)

    assert offers.offer_expire(offer_id=first.id) == "expired"
    assert offers.offer_expire(offer_id=first.id) == "offer expired"  # duplicate: nothing
    [second] = pending_offers(game)
    assert second.entry_id == entries[1].id
    with pytest.raises(Conflict) as late:
        offers.offer_accept(entry_id=entries[0].id, caller=listed[0], staff=False, buy_in=100)
    assert late.value.code == "offer_expired"

    # entry 0 is called again for the next vacancy, misses again and drops
    offers.offer_accept(entry_id=entries[1].id, caller=listed[1], staff=False, buy_in=100)
    seat_leave(table_id=table.id, player=seated[1])
    fill(game)
    [third] = pending_offers(game)
    assert third.entry_id == entries[0].id
    Offer.objects.filter(pk=third.pk).update(expires_at=timezone.now())
    fill(game)  # the sweep's pass
    entries[0].refresh_from_db()
    assert entries[0].status == EntryStatus.DROPPED
    assert pending_offers(game)[0].entry_id == entries[2].id


def test_a_timer_that_is_not_due_changes_nothing():
    game, table, seated, _, _ = _full_game_with_list()
    seat_leave(table_id=table.id, player=seated[0])
    fill(game)
    [offer] = pending_offers(game)
    assert offers.offer_expire(offer_id=offer.id) == "not due"
    assert pending_offers(game) == [offer]
    assert Offer.objects.get(pk=offer.id).status == OfferStatus.PENDING


def test_a_player_who_sits_directly_at_the_game_leaves_its_list():
    game = make_game()
    table = tables_of(game)[0]
    player = make_player()
    entry = waitlist.entry_join(game_id=game.id, player=player)
    fill(game)  # seats are free: the first is offered to them
    seat_sit(table_id=table.id, player=player, seat_number=4, buy_in=100)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.SEATED
    assert pending_offers(game) == []


def test_the_sweep_calls_names_and_expires_offers_whose_tasks_were_lost():
    from games import tasks

    game, table, seated, _, entries = _full_game_with_list()
    idle = make_game(name="Idle")
    # nothing to do anywhere: no pass at all
    assert tasks.floor_sweep() == {"games": 0, "failed": 0}

    seat_leave(table_id=table.id, player=seated[0])  # its fill task is lost
    assert tasks.floor_sweep() == {"games": 1, "failed": 0}
    [offer] = pending_offers(game)
    assert offer.entry_id == entries[0].id

    Offer.objects.filter(pk=offer.pk).update(expires_at=timezone.now())  # its timer is lost
    tasks.floor_sweep()
    assert Offer.objects.get(pk=offer.pk).status == OfferStatus.EXPIRED
    assert pending_offers(game)[0].entry_id == entries[1].id
    assert not pending_offers(idle)


def test_a_name_is_skipped_only_for_the_very_vacancy_it_missed():
    # table sequences are per table, so two offers of other seats can share parts of the
    # vacancy's key: (table one, seat 2, v) and (table two, seat 1, v) are not (one, 1, v)
    game = make_game(tables=2, misses_allowed=5)
    one, two = tables_of(game)
    seated = fill_table(one)
    fill_table(two, prefix="q")
    player = make_player()
    entry = waitlist.entry_join(game_id=game.id, player=player)
    seat_leave(table_id=one.id, player=seated[0])
    vacancy = TableEvent.objects.get(table=one, kind="leave").seq
    for table, seat in ((one, 2), (two, 1)):
        Offer.objects.create(
            game=game,
            table=table,
            seat=seat,
            entry=entry,
            vacancy=vacancy,
            status=OfferStatus.DECLINED,
            opened_at=timezone.now(),
            expires_at=timezone.now(),
        )

    fill(game)

    [offer] = pending_offers(game)
    assert (offer.entry_id, offer.table_id, offer.seat) == (entry.id, one.id, 1)
