"""Hands with chosen cards recorded at a tournament table (engine log and all), so the
tournament update finds a real bust hand: who won which pot is the engine's answer."""

from __future__ import annotations

from django.utils import timezone

from games.engine.replay import header, to_dict
from games.models import Hand, HandStatus, Seat, Table, TableEvent
from tests.engine.helpers import stacked_hand


def record_hand(
    table_id: int, stacks: dict[int, int], cards: dict[int, str], *, completer: int | None = None
) -> Hand:
    """Set the seats' stacks (seat -> chips), play a hand from ``cards`` (seat -> cards in
    dealing order) where everyone checks or calls (a short stack is all in through its ante
    or bring-in) except ``completer``, who completes once on third street, and everyone
    shows; record it and pay its final stacks into the seats."""
    table = Table.objects.get(pk=table_id)
    for number, chips in stacks.items():
        Seat.objects.filter(table=table, number=number).update(stack=chips)
    seats = list(Seat.objects.filter(table=table, player__isnull=False).order_by("number"))
    hand = stacked_hand(
        table.engine_rules(),
        table.engine_stakes(),
        [seat.stack for seat in seats],
        {index: cards[seat.number] for index, seat in enumerate(seats)},
    )
    state = hand.state
    start = header(state)
    completer_index = next((i for i, s in enumerate(seats) if s.number == completer), None)
    completed = False
    while not state.is_over:
        names = [option.action for option in state.legal_actions()]
        if state.actor == completer_index and "complete" in names and not completed:
            hand.act("complete")
            completed = True
            continue
        if state.actor is None and state.candidates:
            hand.act("show", player=state.candidates[0])
            continue
        for action in ("show", "bring_in", "check", "call"):
            if action in names:
                hand.act(action)
                break
        else:
            raise AssertionError(f"no passive action among {names}")
    table.hands_played += 1
    recorded = Hand.objects.create(
        table=table,
        number=table.hands_played,
        status=HandStatus.FINISHED,
        lineup=[{"seat": s.number, "player": s.player_id, "name": "", "bot": True} for s in seats],
        header=start,
        snapshot=to_dict(state),
        seed=b"0" * 32,
        commitment="0" * 64,
        finished_at=timezone.now(),
    )
    for event in state.log:
        table.seq += 1
        TableEvent.objects.create(
            table=table, seq=table.seq, hand=recorded, kind=event.type, data=event.to_dict()
        )
    table.save(update_fields=["hands_played", "seq"])
    for seat, player in zip(seats, state.players, strict=True):
        Seat.objects.filter(pk=seat.pk).update(stack=player.stack)
    return recorded
