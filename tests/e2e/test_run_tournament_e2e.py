"""``run_tournament`` plays, small, the tournaments of issue 35's "Done when" on real Celery
workers, each to the end with the audit passed and the ledger balanced: stud_hi with
progressive bounties, razz with rebuys, an add-on and re-entries, a mixed rotation, and a
live event (the command reports as the director; the winner's closing count checked)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import Sum

from tests.e2e.workers import WorkerPool
from tourney.models import Entry, TournamentEvent

pytestmark = pytest.mark.e2e

DONE_WHEN = {
    "stud_hi_progressive_bounties": ["--players=16", "--bounty=50", "--bounty-kind=progressive"],
    "razz_rebuys_add_on_re_entries": [
        "--players=12",
        "--variant=razz",
        "--rebuys=2",
        "--rebuy-levels=2",
        "--add-on-level=2",
        "--re-entries=1",
        "--re-entry-levels=2",
        "--payouts=60,40",
    ],
    "mixed_rotation": ["--players=12", "--games=stud_hi,razz,stud_8"],
    "live": ["--players=12", "--mode=live", "--payouts=70,30"],
}


def _run(*options: str) -> dict:
    out = StringIO()
    call_command(
        "run_tournament",
        *options,
        "--json",
        "--workers=0",
        "--level-seconds=10",
        "--timeout=240",
        stdout=out,
        stderr=StringIO(),
    )
    return json.loads(out.getvalue())


@pytest.mark.parametrize("options", DONE_WHEN.values(), ids=DONE_WHEN.keys())
def test_run_tournament_plays_it_to_the_end_audited_and_balanced(
    celery_workers: WorkerPool, options: list[str]
):
    celery_workers.start()
    celery_workers.start()
    report = _run(*options)
    assert report["audit"]["passed"] is True
    assert report["ledger"] == {"ok": True, "problems": []}
    assert report["chips_conserved"] is True
    entries = Entry.objects.filter(tournament_id=report["tournament"])
    places = [place["place"] for place in report["places"]]  # equal stacks out together share
    assert len(places) == entries.count() and None not in places and places.count(1) == 1
    assert sum(place["prize"] for place in report["places"]) == report["prize_pool"]
    bought = report["bought"]
    assert report["prize_pool"] == 100 * (
        entries.count() + bought["rebuys"] + bought["add_ons"]
    ) - 50 * entries.count() * ("--bounty=50" in options)
    if "--bounty=50" in options:
        assert entries.aggregate(won=Sum("bounty_won"))["won"] == 50 * entries.count()
    if "--rebuys=2" in options:
        assert bought["rebuys"] > 0 and bought["add_ons"] > 0 and bought["re_entries"] > 0
    if "--mode=live" in options:
        assert report["audit"]["live_mismatches"] == []
        closing = TournamentEvent.objects.filter(
            tournament_id=report["tournament"], kind="chips"
        ).latest("seq")
        assert closing.data["in_play"] == closing.data["expected"] == 12 * 2000
