"""The independent audit of a tournament: its event log alone, checked against the seats
and the entries (what a club's auditor, ``bench tournament`` and the tests run).

Every chip put in play (draw, late seats, rebuys, add-ons) plus every logged ``chips_delta``
is on a seat, in whole chips of the smallest in play (online); every level's chip check
passed; every elimination, undone bust and disqualification accounts for who is out; once
finished, every paid entry has a place (one winner) and the prizes sum to the pool.
The order of things (``places_order_check``): busts placed in the order their hands ended,
no final place changed, hand-for-hand only on a final field, its rounds one after another.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import datetime
from typing import Any

from games.models import Hand, Seat, Table, TableStatus
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
    places_order_check(tournament, log, entries)
    figures = {"events": len(log), "chips_logged": chips, "chips_delta": deltas}
    return figures | {"on_seats": on_seats} | live_chips_audit(tournament, log)


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


def places_order_check(
    tournament: Tournament, log: list[TournamentEvent], entries: dict[int, Entry]
) -> None:
    """Busts placed in the order their hands ended; a final place logged once and never
    changed; hand-for-hand only while no window can add an entry or change the prizes; no
    hand-for-hand round started at a table before the round before it ended at every
    table."""
    _final_places_check(log, entries)
    _bust_order_check(log)
    _hand_for_hand_field_check(tournament, log)
    _hand_for_hand_rounds_check(tournament, log)


def _final_places_check(log: list[TournamentEvent], entries: dict[int, Entry]) -> None:
    """Each entry's ``places_final`` logged once, and no later ``places`` or ``results``
    event, nor the entry's row, gives it another place or prize."""
    final: dict[int, tuple[int, int]] = {}
    for event in log:
        if event.kind not in ("places_final", "places", "results"):
            continue
        for line in event.data["places"]:
            entry, placed = line["entry"], (line["place"], line["prize"])
            if event.kind == "places_final":
                _check(entry not in final, f"entry {entry}'s place logged final twice")
                final[entry] = placed
            else:
                _check(
                    final.get(entry, placed) == placed,
                    f"entry {entry}'s final place {final.get(entry)} changed to {placed} "
                    f"(event {event.seq})",
                )
    for entry, placed in final.items():
        row = entries[entry]
        _check(
            (row.place, row.prize) == placed,
            f"entry {entry} is placed {(row.place, row.prize)}, logged final {placed}",
        )


def _bust_order_check(log: list[TournamentEvent]) -> None:
    """Bust groups placed (finally) in the order their hands ended: every entry of a later
    group above every entry of an earlier one (the players of one group share or go by
    their stacks)."""
    busted: dict[int, tuple[datetime, int]] = {}
    final: dict[int, int] = {}
    for event in log:
        if event.kind == "eliminated":
            for bust in event.data["busts"]:
                if "ended_at" in bust:
                    ended = datetime.fromisoformat(bust["ended_at"])
                    busted[bust["entry"]] = (ended, event.data["group"])
        elif event.kind == "bust_undone":
            busted.pop(event.data["entry"], None)
        elif event.kind == "places_final":
            final.update((line["entry"], line["place"]) for line in event.data["places"])
    groups: dict[int, list[tuple[datetime, int, int]]] = defaultdict(list)
    for entry, (ended, group) in busted.items():
        if entry in final:
            groups[group].append((ended, entry, final[entry]))
    best = None
    for group in sorted(groups.values(), key=min):
        worst = max(place for _, _, place in group)
        ended, entry, _ = min(group)
        _check(
            best is None or worst < best,
            f"entry {entry} busted at {ended.isoformat()}, after players placed {best}, "
            f"but a player of its group is placed {worst}",
        )
        best = min(place for _, _, place in group)


def _hand_for_hand_field_check(tournament: Tournament, log: list[TournamentEvent]) -> None:
    """No hand-for-hand round started while late registration, re-entry, rebuys or the
    add-on were open (by the levels logged: a window runs to the end of its level)."""
    level = 1
    late_until = tournament.late_reg_levels
    for event in log:
        data = event.data
        if event.kind in ("level", "break") or ("index" in data and "level" in data):
            level = data["level"]
        elif event.kind == "late_registration":
            late_until = data["until_level"] if data["open"] else 0
        elif event.kind in ("hand_for_hand", "hand_for_hand_round"):
            open_ = [
                name
                for name, until in (
                    ("late registration", late_until),
                    ("re-entry", tournament.re_entry_levels if tournament.re_entry_max else 0),
                    ("rebuys", tournament.rebuy_levels if tournament.rebuy_max else 0),
                    ("the add-on", tournament.add_on_level),
                )
                if level <= until
            ]
            _check(
                not open_, f"hand-for-hand at level {level} with {open_} open (event {event.seq})"
            )


def _hand_for_hand_rounds_check(tournament: Tournament, log: list[TournamentEvent]) -> None:
    """Each hand-for-hand round (from its ``hand_for_hand`` or ``hand_for_hand_round`` event
    to the next) deals at most one hand at each table, the first round counting the hands
    in progress as it started; and every hand of a round ended before the next round
    started (not before hand-for-hand ended, nor the last hand of a table broken since: a
    table breaking is not waited for)."""
    rounds: list[tuple[datetime, datetime | None, bool, bool]] = []  # begins, ends, first, next
    start, first = None, True
    for event in log:
        if event.kind in ("hand_for_hand", "hand_for_hand_round"):
            if start is not None:
                rounds.append((start, event.created_at, first, True))
            start, first = event.created_at, event.kind == "hand_for_hand"
        elif event.kind in ("hand_for_hand_over", "finished") and start is not None:
            rounds.append((start, event.created_at, first, False))
            start = None
    if start is not None:
        rounds.append((start, None, first, False))
    if not rounds:
        return
    hands = list(
        Hand.objects.filter(table__tournament_table__tournament=tournament).values_list(
            "table_id", "number", "started_at", "finished_at"
        )
    )
    last = {table: number for table, number, _, _ in sorted(hands, key=lambda h: h[1])}
    closed = set(
        Table.objects.filter(
            tournament_table__tournament=tournament, status=TableStatus.CLOSED
        ).values_list("id", flat=True)
    )
    for begins, ends, first, next_round in rounds:
        dealt: Counter[int] = Counter()
        for table, number, started, finished in hands:
            in_progress = first and started < begins and (finished is None or finished > begins)
            if not (in_progress or (begins <= started and (ends is None or started < ends))):
                continue
            dealt[table] += 1
            _check(
                dealt[table] == 1,
                f"table {table} dealt hand {number} as its second in the hand-for-hand round "
                f"from {begins.isoformat()}",
            )
            breaking = table in closed and number == last[table]  # not waited for
            _check(
                not next_round
                or breaking
                or (finished is not None and ends is not None and finished <= ends),
                f"table {table}'s hand {number} of the hand-for-hand round from "
                f"{begins.isoformat()} ended after the next round started",
            )


def live_chips_audit(tournament: Tournament, log: list[TournamentEvent]) -> dict[str, Any]:
    """Every chip check says what its figures say (none forced ``ok``, live or online). Live,
    a mismatch between the director's full count and the chips in play is the director's to
    resolve (a recount, or a correction with its ``chips_delta``): the audit does not fail
    on it but reports each (``live_mismatches``) and whether the latest check still fails
    (``live_unresolved``)."""
    checks = [e for e in log if e.kind == "chips"]
    forced = [e.seq for e in checks if e.data["ok"] != (e.data["in_play"] == e.data["expected"])]
    _check(not forced, f"chip checks {forced} say ok against their figures")
    if tournament.mode != Mode.LIVE:
        return {}
    mismatches = [
        {"seq": e.seq, "in_play": e.data["in_play"], "expected": e.data["expected"]}
        for e in checks
        if not e.data["ok"]
    ]
    return {
        "live_checks": len(checks),
        "live_mismatches": mismatches,
        "live_unresolved": bool(checks) and not checks[-1].data["ok"],
    }
