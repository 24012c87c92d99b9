"""The pure standings (leagues.standings): order of entry does not matter, best N takes the
best, the incremental fold equals the recompute, ties share a rank after the tie-breaks."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.standings import (
    Line,
    Result,
    line_add,
    lines_from_results,
    ranks,
    standings,
)

TIE_BREAKS = ["wins", "best_finish", "final_tables", "knockouts"]


@st.composite
def seasons(draw):
    """Events with a finishing order each (a field drawn from 8 players)."""
    events = []
    for event in range(1, draw(st.integers(min_value=1, max_value=6)) + 1):
        field = draw(st.lists(st.integers(1, 8), min_size=1, max_size=8, unique=True))
        for place, player in enumerate(field, start=1):
            events.append(
                Result(
                    event=event,
                    player=player,
                    place=place,
                    total=Decimal(draw(st.integers(0, 5000))) / 100,
                    knockouts=Decimal(draw(st.integers(0, 4))) / 2,
                    prize=draw(st.sampled_from([0, 0, 50, 200])),
                    spent=110,
                    final_table=place <= 3,
                )
            )
    return events


def _incremental(results, best_of):
    lines: dict[int, Line] = {}
    for result in results:
        lines[result.player] = line_add(
            lines.get(result.player) or Line(player=result.player), result, best_of
        )
    return lines


@settings(deadline=None)  # a property, not a timing: machines under load are slow
@given(results=seasons(), best_of=st.none() | st.integers(1, 4), data=st.data())
def test_standings_do_not_depend_on_the_order_events_were_entered(results, best_of, data):
    shuffled = data.draw(st.permutations(results))
    assert ranks(_incremental(shuffled, best_of).values(), TIE_BREAKS) == ranks(
        lines_from_results(results, best_of).values(), TIE_BREAKS
    )


@settings(deadline=None)  # a property, not a timing: machines under load are slow
@given(results=seasons(), best_of=st.none() | st.integers(1, 4))
def test_the_incremental_fold_equals_the_recompute(results, best_of):
    assert _incremental(results, best_of) == lines_from_results(results, best_of)


@settings(deadline=None)  # a property, not a timing: machines under load are slow
@given(results=seasons(), best_of=st.integers(1, 4))
def test_best_n_counts_the_best_totals(results, best_of):
    for player, line in lines_from_results(results, best_of).items():
        totals = sorted((r.total for r in results if r.player == player), reverse=True)
        assert line.points == sum(totals[:best_of], Decimal(0))
        assert line.events_counted == min(best_of, len(totals))


def test_best_of_two_drops_the_worst_result():
    results = [
        Result(event=1, player=7, place=1, total=Decimal("30")),
        Result(event=2, player=7, place=5, total=Decimal("5")),
        Result(event=3, player=7, place=2, total=Decimal("20")),
    ]
    line = lines_from_results(results, 2)[7]
    assert (line.points, line.events_played, line.events_counted) == (Decimal("50"), 3, 2)


def test_ties_are_broken_in_order_and_players_still_equal_share_a_rank():
    results = [
        # 1 and 2 on 10 points: 1 has a win, 2 has none -> 1 first
        Result(event=1, player=1, place=1, total=Decimal("10")),
        Result(event=2, player=2, place=2, total=Decimal("10")),
        # 3 and 4 on 5 points, equal on every tie-break: they share rank 3
        Result(event=1, player=3, place=4, total=Decimal("5")),
        Result(event=2, player=4, place=4, total=Decimal("5")),
        Result(event=2, player=5, place=9, total=Decimal("1")),
    ]
    ranked = ranks(lines_from_results(results, None).values(), TIE_BREAKS)
    assert [(rank, line.player) for rank, line in ranked] == [
        (1, 1),
        (2, 2),
        (3, 3),
        (3, 4),
        (5, 5),
    ]


def test_movement_compares_with_the_standings_before_the_latest_event():
    results = [
        Result(event=1, player=1, place=1, total=Decimal("10")),
        Result(event=1, player=2, place=2, total=Decimal("6")),
        Result(event=2, player=2, place=1, total=Decimal("10")),
        Result(event=2, player=3, place=2, total=Decimal("6")),
    ]
    rows = standings(results, [1, 2], None, TIE_BREAKS)
    assert [(s.rank, s.previous_rank, s.line.player) for s in rows] == [
        (1, 2, 2),
        (2, 1, 1),
        (3, None, 3),
    ]
