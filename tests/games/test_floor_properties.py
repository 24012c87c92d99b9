"""A Hypothesis state machine over a game's floor: players join and leave the list, seated
players get up, offers are accepted, declined or left to expire, tables open as the list
grows. After every step (each followed by the worker's pass) the floor's invariants hold:

- the list is a strict order (distinct ranks, positions 1..n in rank order);
- every open seat is offered or taken, unless no name on the list may be called for it;
- nobody waits on a list for a game they are seated in, and nobody is seated twice;
- a seat is held by at most one offer, never while taken, and a name holds at most one.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Count, Q
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from games.errors import ServiceError
from games.floor_selectors import entry_view
from games.models import (
    EntryStatus,
    GameTable,
    Offer,
    OfferStatus,
    PendingTableStatus,
    Player,
    Seat,
    TableEvent,
)
from games.services import offers, waitlist
from games.services.seating import seat_leave
from tests.games.factories import make_player
from tests.games.floor import (
    fill,
    fill_table,
    make_game,
    pending_offers,
    seated_ids,
    tables_of,
    waiting,
)

pytestmark = pytest.mark.django_db

PLAYERS = 14


class Floor(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.game = make_game(seat_count=3, open_at_list_length=2, max_tables=3, misses_allowed=1)
        self.players = [make_player() for _ in range(PLAYERS)]
        # the first table starts full, so a list of two opens the next one
        fill_table(tables_of(self.game)[0], prefix=f"g{self.game.id}-")

    def _player(self, k: int) -> Player:
        return self.players[k % PLAYERS]

    def _worker(self) -> None:
        fill(self.game)

    @rule(k=st.integers(0, PLAYERS - 1), prefer=st.booleans())
    def join(self, k: int, prefer: bool) -> None:
        tables = tables_of(self.game)
        table_id = tables[k % len(tables)].id if prefer else None
        try:
            waitlist.entry_join(game_id=self.game.id, player=self._player(k), table_id=table_id)
        except ServiceError as error:
            assert error.code in ("already_seated", "already_listed")
        self._worker()

    @rule(ks=st.lists(st.integers(0, PLAYERS - 1), min_size=2, max_size=4, unique=True))
    def crowd(self, ks: list[int]) -> None:
        """A busy moment: several names go down before the worker's pass (tables open)."""
        for k in ks:
            try:
                waitlist.entry_join(game_id=self.game.id, player=self._player(k))
            except ServiceError as error:
                assert error.code in ("already_seated", "already_listed")
        self._worker()

    @rule(k=st.integers(0, 100))
    def leave_list(self, k: int) -> None:
        entries = waiting(self.game)
        if entries:
            entry = entries[k % len(entries)]
            waitlist.entry_leave(
                entry_id=entry.id, caller=entry.player, by=None, staff=False, reason=""
            )
        self._worker()

    @rule(k=st.integers(0, 100))
    def get_up(self, k: int) -> None:
        seats = list(
            Seat.objects.filter(table__game_table__game=self.game, player__isnull=False)
            .select_related("player")
            .order_by("id")
        )
        if seats:
            seat = seats[k % len(seats)]
            assert seat.player is not None
            seat_leave(table_id=seat.table_id, player=seat.player)
        self._worker()

    @rule(k=st.integers(0, 100), answer=st.sampled_from(["accept", "decline", "expire"]))
    def answer(self, k: int, answer: str) -> None:
        made = [o for o in pending_offers(self.game) if o.entry_id is not None]
        if made:
            offer = made[k % len(made)]
            entry = offer.entry
            assert entry is not None
            if answer == "accept":
                offers.offer_accept(entry_id=entry.id, caller=entry.player, staff=False, buy_in=100)
            elif answer == "decline":
                offers.offer_decline(entry_id=entry.id, caller=entry.player, staff=False)
            else:
                Offer.objects.filter(pk=offer.pk).update(
                    expires_at=timezone.now() - timedelta(seconds=1)
                )
                offers.offer_expire(offer_id=offer.id)
        self._worker()

    @invariant()
    def the_list_is_a_strict_order(self) -> None:
        entries = waiting(self.game)
        ranks = [e.rank for e in entries]
        assert len(set(ranks)) == len(ranks) == len(sorted(ranks))
        assert [entry_view(e)["position"] for e in entries] == list(range(1, len(entries) + 1))

    @invariant()
    def every_open_seat_is_offered_or_taken_unless_nobody_may_be_called(self) -> None:
        open_tables = GameTable.objects.filter(game=self.game, status=PendingTableStatus.OPEN)
        held = {(o.table_id, o.seat) for o in pending_offers(self.game)}
        free = Seat.objects.filter(
            table__game_table__in=open_tables, player__isnull=True
        ).values_list("table_id", "number")
        for table_id, number in free:
            if (table_id, number) in held:
                continue
            vacated = (
                TableEvent.objects.filter(
                    table_id=table_id, kind__in=("leave", "move_out"), data__seat=number
                )
                .order_by("-seq")
                .values_list("seq", flat=True)
                .first()
                or 0
            )
            callable_names = (
                self.game.entries.filter(status=EntryStatus.WAITING)
                .filter(Q(table__isnull=True) | Q(table_id=table_id))
                .exclude(offers__status=OfferStatus.PENDING)
                .exclude(
                    pk__in=Offer.objects.filter(
                        table_id=table_id, seat=number, vacancy=vacated, entry__isnull=False
                    ).values("entry_id")
                )
            )
            assert not callable_names.exists(), (table_id, number, list(callable_names))

    @invariant()
    def nobody_waits_for_a_game_they_are_seated_in_or_sits_twice(self) -> None:
        seated = seated_ids(self.game)
        assert len(seated) == len(set(seated))
        assert (
            not waiting(self.game)
            or not self.game.entries.filter(
                status=EntryStatus.WAITING, player_id__in=seated
            ).exists()
        )

    @invariant()
    def a_seat_and_a_name_hold_at_most_one_offer_and_never_a_taken_seat(self) -> None:
        pending = Offer.objects.filter(game=self.game, status=OfferStatus.PENDING)
        assert not pending.values("table", "seat").annotate(n=Count("id")).filter(n__gt=1)
        assert not pending.values("entry").annotate(n=Count("id")).filter(n__gt=1)
        for offer in pending:
            assert Seat.objects.get(table_id=offer.table_id, number=offer.seat).player_id is None


def test_the_floor_keeps_its_invariants():
    run_state_machine_as_test(
        Floor,
        settings=settings(
            max_examples=8,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
