"""A Hypothesis state machine over the cashier, ring games, tournaments and a league:
deposits and withdrawals (site-wide and in the club), buy-ins, top-ups, hands played by
bots, cash-outs, registrations, refunds, cancellations and tournaments played to the end;
the club's tournaments attached to a season with a league fee (before or after players
registered), and the season closed (its pot paid by the standings) and a new one begun.
After every step the ledger balances and matches the chips in play and the season pots
(``ledger_check``), and every unit is where the model says."""

from __future__ import annotations

import contextlib
import itertools
from datetime import date

import pytest
from django.test import TestCase
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from clubs.models import Club
from games.errors import Conflict, Invalid
from games.models import Seat
from games.services import hands
from games.services.seating import seat_leave, seat_sit, seat_top_up
from leagues.models import League, Season
from leagues.services.events import event_attach_tournament
from leagues.services.fees import pot_account
from leagues.services.pot import season_close
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
_names = itertools.count()


class LedgerMachine(RuleBasedStateMachine):
    @initialize()
    def setup(self) -> None:
        self.club = Club.objects.create(name=f"Machine club {next(_names)}")
        self.staff = make_player(staff=True, funds=0).user
        self.players = [make_player(bot="rules", funds=0) for _ in range(PLAYERS)]
        self.table = make_table(rake_basis_points=500, rake_cap=10, buy_in_min=20, buy_in_max=400)
        self.season = self._new_season()
        self.tournament = self._new_tournament(attached=False)
        for player in self.players:  # enough for a buy-in and the league fee, or two
            cashier.deposit(player_id=player.id, amount=130, by=self.staff, club_id=self.club.id)
        # what earlier examples left in the ledger (and the test's funding of their players)
        self.cash_in = {where: -balance_of(cash_desk(where)) for where in (None, self.club.id)}

    def _player(self, k: int):
        return self.players[k % PLAYERS]

    def _new_season(self) -> Season:
        league = League.objects.create(club=self.club, name=f"League {next(_names)}")
        fields = {"starts_on": date(2020, 1, 1), "ends_on": date(2100, 1, 1)}
        return Season.objects.create(
            league=league,
            name="S",
            formula="reverse_rank",
            league_fee=3,
            pot_payout=["60", "40"],
            **fields,
        )

    def _new_tournament(self, *, attached: bool):
        """The club's next tournament, attached to the season before anyone registers, or
        not (the ``attach`` rule may attach it later, charging its entries then)."""
        tournament = make_tournament(buy_in=60, fee=5, club_id=self.club.id)
        if attached:
            event_attach_tournament(season=self.season, tournament_id=tournament.id)
        return tournament

    @rule(k=st.integers(0, PLAYERS - 1), amount=st.integers(1, 500), in_club=st.booleans())
    def deposit(self, k: int, amount: int, in_club: bool) -> None:
        where = self.club.id if in_club else None
        cashier.deposit(player_id=self._player(k).id, amount=amount, by=self.staff, club_id=where)
        self.cash_in[where] += amount

    @rule(k=st.integers(0, PLAYERS - 1), amount=st.integers(1, 500), in_club=st.booleans())
    def withdraw(self, k: int, amount: int, in_club: bool) -> None:
        player, where = self._player(k), self.club.id if in_club else None
        before = balance_of(player_account(player.id, where))
        try:
            cashier.withdraw(player_id=player.id, amount=amount, by=self.staff, club_id=where)
        except InsufficientFunds:
            assert amount > before
            return
        self.cash_in[where] -= amount

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

    @rule(attached=st.booleans())
    def cancel(self, attached: bool) -> None:
        tournament_cancel(tournament_id=self.tournament.id)
        self.tournament = self._new_tournament(attached=attached)

    @rule()
    def attach(self) -> None:
        """The tournament joins the season: its players so far pay the league fee."""
        with contextlib.suppress(REFUSALS):
            event_attach_tournament(season=self.season, tournament_id=self.tournament.id)

    @rule()
    def close_season(self) -> None:
        pot = balance_of(pot_account(self.season))
        try:
            closed = season_close(season_id=self.season.id)
        except Conflict:  # its tournament has not finished
            return
        assert sum(row["amount"] for row in closed.pot_payouts) == pot
        assert balance_of(pot_account(self.season)) == 0
        self.season = self._new_season()

    @rule(attached=st.booleans())
    def run_tournament(self, attached: bool) -> None:
        if self.tournament.entries.filter(status="registered").count() < 2:
            return
        tournament_start(tournament_id=self.tournament.id)
        # the results enter the season after the finish commits (on_commit): run them now
        with TestCase.captureOnCommitCallbacks(execute=True):
            play_to_the_end(self.tournament)
        self.tournament.refresh_from_db()
        assert self.tournament.status == Status.FINISHED
        self.tournament = self._new_tournament(attached=attached)

    @rule()
    def league_evening(self) -> None:
        """Everyone who can afford it registers, the tournament joins the season (charging
        them the league fee, if it had not joined before they registered), is played to the
        end, and the season closes: its pot is paid by the standings."""
        for k in range(PLAYERS):
            self.register(k)
        self.attach()
        self.run_tournament(attached=False)
        self.close_season()

    @invariant()
    def the_ledger_balances_and_matches_the_chips_in_play(self) -> None:
        report = ledger_check()
        assert report.ok, report.problems
        for where, cash_in in self.cash_in.items():
            assert -balance_of(cash_desk(where)) == cash_in


def test_the_ledger_reconciles_after_every_step():
    machine = LedgerMachine.TestCase
    machine.settings = settings(max_examples=12, stateful_step_count=25, deadline=None)
    machine().runTest()
