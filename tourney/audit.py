"""The independent audit of a tournament: its event log alone, checked against the seats
and the entries (what a club's auditor, ``bench tournament`` and the tests run).

Every chip put in play (draw, late seats, rebuys, add-ons) plus every logged ``chips_delta``
is on a seat, in whole chips of the smallest in play (online); every level's chip check
passed; every elimination, undone bust and disqualification accounts for who is out; once
finished, every paid entry has a place (one winner) and the prizes sum to the pool.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.models import Seat
from tourney.audit_deals import deals_audit
from tourney.models import Entry, EntryStatus, Mode, Status, Tournament, TournamentEvent


class AuditFailed(Exception):
    """The log and the tournament's rows disagree; the message says where."""


def _check(ok: bool, problem: str) -> None:
    if not ok:
        raise AuditFailed(problem)


def tournament_audit(tournament: Tournament) -> dict[str, Any]:
    """Audit ``tournament``; returns its figures, raises ``AuditFailed`` on a discrepancy."""
    tournament.refresh_from_db()
    log = list(TournamentEvent.objects.filter(tournament=tournament).order_by("seq"))
    _check([e.seq for e in log] == list(range(1, len(log) + 1)), "the log has gaps")
    chips, deltas, out = _logged(tournament, log)
    stacks = list(
        Seat.objects.filter(table__tournament_table__tournament=tournament).values_list(
            "stack", flat=True
        )
    )
    on_seats = sum(stacks)
    if tournament.mode == Mode.ONLINE:
        _check(on_seats == chips + deltas, f"{on_seats} on the seats, {chips} + {deltas} logged")
        odd = [stack for stack in stacks if stack % tournament.unit_in_play]
        _check(not odd, f"stacks {odd} are not whole chips of {tournament.unit_in_play}")
        failed = [e.data for e in log if e.kind == "chips" and not e.data["ok"]]
        _check(not failed, f"chip checks failed: {failed}")
    _check(
        deltas == tournament.chips_adjusted,
        f"{deltas} logged, {tournament.chips_adjusted} adjusted",
    )
    entries = {e.id: e for e in Entry.objects.filter(tournament=tournament)}
    _check(all(n in (0, 1) for n in out.values()), f"an entry out twice: {out}")
    eliminated = {e for e, n in out.items() if n > 0}
    _check(
        eliminated == {e.id for e in entries.values() if e.status == EntryStatus.ELIMINATED},
        "the log and the entries disagree on who is out",
    )
    disqualified = {e.data["entry"] for e in log if e.kind == "disqualified"}
    _check(
        disqualified == {e.id for e in entries.values() if e.disqualified},
        "the log and the entries disagree on who was disqualified",
    )
    _deals_check(tournament, log)
    if tournament.status == Status.FINISHED:
        _results_check(tournament, list(entries.values()))
    return {"events": len(log), "chips_logged": chips, "chips_delta": deltas, "on_seats": on_seats}


def _logged(tournament: Tournament, log: list[TournamentEvent]) -> tuple[int, int, Counter[int]]:
    """The chips the log puts in play, its chip deltas, and how often each entry went out."""
    chips = deltas = 0
    out: Counter[int] = Counter()
    for event in log:
        data = event.data
        if event.kind == "draw":
            chips += tournament.starting_stack * len(data["seats"])
        elif event.kind == "seated":
            chips += tournament.starting_stack
        elif event.kind in ("rebuy", "add_on"):
            chips += data["chips"]
        elif event.kind == "eliminated":
            out.update(bust["entry"] for bust in data["busts"])
        elif event.kind == "bust_undone":
            out[data["entry"]] -= 1
        deltas += data.get("chips_delta", 0)
    return chips, deltas, out


def _deals_check(tournament: Tournament, log: list[TournamentEvent]) -> None:
    """Online, no hand dealt out of balance past one pass, at a table that should have
    broken, or before the final table's redraw (``tourney.audit_deals``)."""
    if tournament.mode == Mode.ONLINE:
        problems = deals_audit(tournament, log)
        _check(not problems, f"{len(problems)} hands dealt out of turn: {problems[:3]}")


def _results_check(tournament: Tournament, entries: list[Entry]) -> None:
    paid = [e for e in entries if e.status in (EntryStatus.ELIMINATED, EntryStatus.WINNER)]
    places = [e.place for e in paid]
    _check(None not in places, "a finished entry has no place")
    _check(places.count(1) == 1, f"{places.count(1)} entries placed first")
    _check(max(places, default=0) <= len(paid), "a place beyond the field")
    prizes = sum(e.prize for e in paid)
    _check(prizes == tournament.prize_pool, f"prizes {prizes}, pool {tournament.prize_pool}")
