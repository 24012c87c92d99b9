"""A Hypothesis state machine over the cashier, ring games and tournaments: deposits and
withdrawals, buy-ins, top-ups, hands played by bots, cash-outs, registrations, refunds,
cancellations and tournaments played to the end. After every step the ledger balances and
matches the chips in play (``ledger_check``), and every unit is where the model says."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from games.errors import Conflict, Invalid
from games.models import Seat
from games.services import hands
from games.services.seating import seat_leave, seat_sit, seat_top_up
from money import cashier
from money.errors import InsufficientFunds
from money.ledger import balance_of, cash_desk, player_account
from money.reconciliation import ledger_check
from tests.games.factories import make_player, make_table
from tests.tourney.tournaments import make_tournament, play_to_the_end
from tourney.models import Status
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.registration import entry_register, entry_unregister
from tourney.services.commands.setup import tournament_cancel

pytestmark = pytest.mark.django_db

PLAYERS = 4
REFUSALS = (InsufficientFunds, Conflict, Invalid)


class LedgerMachine(RuleBasedStateMachine):
    @initialize()
    def setup(self) -> None:
        self.staff = make_player(staff=True, funds=0).user
        self.players = [make_player(bot="rules", funds=0) for _ in range(PLAYERS)]
        self.table = make_table(rake_basis_points=500, rake_cap=10, buy_in_min=20, buy_in_max=400)
        self.tournament = make_tournament(buy_in=60, fee=5)
        self.cash_in = -balance_of(cash_desk())  # what earlier examples left in the ledger

    def _player(self, k: int):
        return self.players[k % PLAYERS]

    @rule(k=st.integers(0, PLAYERS - 1), amount=st.integers(1, 500))
    def deposit(self, k: int, amount: int) -> None:
        cashier.deposit(player_id=self._player(k).id, amount=amount, by=self.staff)
        self.cash_in += amount

    @rule(k=st.integers(0, PLAYERS - 1), amount=st.integers(1, 500))
    def withdraw(self, k: int, amount: int) -> None:
        player = self._player(k)
        before = balance_of(player_account(player.id))
        try:
            cashier.withdraw(player_id=player.id, amount=amount, by=self.staff)
        except InsufficientFunds:
            assert amount > before
            return
        self.cash_in -= amount

    @rule(k=st.integers(0, PLAYERS - 1), amount=st.integers(20, 400))
    def sit(self, k: int, amount: int) -> None:
        player = self._player(k)
        free = Seat.objects.filter(table=self.table, player__isnull=True).order_by("number").first()
        with contextlib.suppress(REFUSALS):
            seat_sit(
                table_id=self.table.id,
                player=player,
                seat_number=free.number,
                buy_in=amount,
                by_staff=True,
            )

    @rule(k=st.integers(0, PLAYERS - 1), amount=st.integers(1, 100))
    def top_up(self, k: int, amount: int) -> None:
        with contextlib.suppress(REFUSALS):
            seat_top_up(table_id=self.table.id, player=self._player(k), amount=amount)

    @rule(steps=st.integers(1, 4))
    def play(self, steps: int) -> None:
        for _ in range(steps):
            hands.table_advance(self.table.id)

    @rule(k=st.integers(0, PLAYERS - 1))
    def leave(self, k: int) -> None:
        with contextlib.suppress(REFUSALS):
            seat_leave(table_id=self.table.id, player=self._player(k))

    @rule(k=st.integers(0, PLAYERS - 1))
    def register(self, k: int) -> None:
        with contextlib.suppress(REFUSALS):
            entry_register(tournament_id=self.tournament.id, player_id=self._player(k).id)

    @rule(k=st.integers(0, PLAYERS - 1))
    def unregister(self, k: int) -> None:
        with contextlib.suppress(REFUSALS):
            entry_unregister(tournament_id=self.tournament.id, player_id=self._player(k).id)

    @rule()
    def cancel(self) -> None:
        tournament_cancel(tournament_id=self.tournament.id)
        self.tournament = make_tournament(buy_in=60, fee=5)

    @rule()
    def run_tournament(self) -> None:
        if self.tournament.entries.filter(status="registered").count() < 2:
            return
        tournament_start(tournament_id=self.tournament.id)
        play_to_the_end(self.tournament)
        self.tournament.refresh_from_db()
        assert self.tournament.status == Status.FINISHED
        self.tournament = make_tournament(buy_in=60, fee=5)

    @invariant()
    def the_ledger_balances_and_matches_the_chips_in_play(self) -> None:
        report = ledger_check()
        assert report.ok, report.problems
        assert -balance_of(cash_desk()) == self.cash_in


def test_the_ledger_reconciles_after_every_step():
    machine = LedgerMachine.TestCase
    machine.settings = settings(max_examples=12, stateful_step_count=25, deadline=None)
    machine().runTest()
