"""The bots of ``run_tournament`` buy what is on offer (``bots_buy``), each purchase funded
with exactly its price, and a live bot field is reported as a director would."""

from __future__ import annotations

from random import Random

import pytest

from money.ledger import balance_of, player_account
from tests.tourney.tournaments import events
from tourney.models import Entry, EntryStatus
from tourney.services.commands.bots import bot_tournament_create, bots_buy, bots_live_report
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.live import live_report_busts, live_report_chips

pytestmark = pytest.mark.django_db

OFFERS = {
    "rebuy_max": 1,
    "rebuy_levels": 2,
    "rebuy_price": 110,
    "rebuy_fee": 10,
    "rebuy_chips": 2000,
    "add_on_level": 2,
    "add_on_price": 110,
    "add_on_fee": 10,
    "add_on_chips": 2000,
    "re_entry_max": 1,
    "re_entry_levels": 2,
}


def _live_bots(players: int, **settings):
    tournament = bot_tournament_create(
        players=players,
        variant="razz",
        table_size=8,
        level_seconds=60,
        seed=1,
        mode="live",
        **settings,
    )
    tournament_start(tournament_id=tournament.id)
    return tournament, list(tournament.entries.order_by("id"))


def test_bots_rebuy_when_short_take_the_add_on_and_re_enter_when_out():
    tournament, (a, b, c, d) = _live_bots(4, **OFFERS)
    live_report_busts(tournament_id=tournament.id, busts={a.id: 2000})
    live_report_chips(tournament_id=tournament.id, counts={b.id: 800, c.id: 3200})
    first = bots_buy(tournament_id=tournament.id)
    assert (first.rebuys, first.add_ons, first.re_entries) == (1, 3, 1)
    second = bots_buy(tournament_id=tournament.id)
    assert (second.rebuys, second.add_ons, second.re_entries) == (0, 1, 0)  # the new entry's
    assert Entry.objects.get(pk=b.pk).rebuys == 1
    assert tournament.entries.filter(status=EntryStatus.PLAYING, add_ons=1).count() == 4
    tournament.refresh_from_db()
    assert tournament.prize_pool == 100 * (5 + 1 + 4)
    for entry in (a, b, c, d):
        assert balance_of(player_account(entry.player_id, tournament.club_id)) == 0


def test_a_live_bot_field_is_reported_to_the_end_with_full_counts_and_the_closing_count():
    tournament, _ = _live_bots(5, payout_percentages=["100"])
    rng = Random(3)
    while bots_live_report(tournament_id=tournament.id, rng=rng):
        pass
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    checks = events(tournament, "chips")
    assert len(checks) == 4 and all(c["ok"] and c["in_play"] == 10_000 for c in checks)
