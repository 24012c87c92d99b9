"""Knockouts and bounties at eliminations (the rules: ``tourney.planning.knockouts``).

``knockouts_credit`` runs inside ``eliminate`` (tournament locked): for each bust it
replays the bust hand, finds who won the busted player's last chips,
credits them the knockout (in equal parts on a split pot), pays the busted entry's bounty,
and writes both into the bust's log line (``knocked_out_by``). A bust with no hand to read
(a live report) credits nobody, and its bounty goes back to its owner.
``bounty_collect`` pays the winner their own head when the tournament ends.
"""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

from games import rows
from games.engine.events import Award
from games.models import Hand
from games.selectors import hand_state
from tourney.models import BountyKind, Entry, EntryStatus, Tournament
from tourney.planning.knockouts import bounty_payments, knockers, knockout_shares, last_chip_pot

logger = logging.getLogger(__name__)

Pots = tuple[list[int], list[bool], list[tuple[int, int]]]
"""A hand's pots as ``_hand_pots`` reads them."""


def _hand_pots(hand: Hand) -> Pots:
    """What each player put in and who was live (not folded or mucked) when the pots were
    awarded, and the awards paid as (pot, lineup index) in order, from the hand's log (as
    its snapshot holds it: written with the events, replayed and checked)."""
    state = hand_state(hand)
    awards = [(e.pot, e.player, e.amount) for e in state.log if isinstance(e, Award)]
    won = [0] * len(state.players)
    for _pot, player, amount in awards:
        won[player] += amount
    # a stack before the awards is its final stack less what it won; the rest went in
    contributions = [p.starting_stack - (p.stack - won[i]) for i, p in enumerate(state.players)]
    live = [p.live for p in state.players]
    return contributions, live, [(pot, player) for pot, player, amount in awards if amount > 0]


def _knocker_players(hand: Hand, busted_player: int, pots: dict[int, Pots]) -> list[int]:
    """The players (ids) who won ``busted_player``'s last chips in ``hand`` (nobody if the
    hand's log cannot be read or the player was not in it: the tournament goes on, the error
    is logged). ``pots``: the
    hands replayed so far (the busts of one hand share its replay)."""
    lineup = [p["player"] for p in hand.lineup]
    if busted_player not in lineup:
        logger.error(
            "hand %s: no knockout credit, player %s was not dealt in", hand.id, busted_player
        )
        return []
    try:
        if hand.id not in pots:
            pots[hand.id] = _hand_pots(hand)
        contributions, live, awards = pots[hand.id]
    except (KeyError, ValueError) as error:
        logger.error("hand %s: no knockout credit, its log does not replay: %r", hand.id, error)
        return []
    busted = lineup.index(busted_player)
    pot = last_chip_pot(contributions, live, busted)
    return [lineup[i] for i in knockers(awards, pot, busted)]


def _snapshots_read(hands: list[Hand]) -> None:
    """Read the snapshots of those of ``hands`` read without them, in one query."""
    wanted = {hand.pk for hand in hands if "snapshot" in hand.get_deferred_fields()}
    if not wanted:
        return
    snapshots = dict(Hand.objects.filter(pk__in=wanted).values_list("pk", "snapshot"))
    for hand in hands:
        if hand.pk in wanted:
            hand.snapshot = snapshots[hand.pk]


def _head(tournament: Tournament, entry: Entry) -> int:
    return tournament.bounty + entry.bounty_gained


def knockouts_credit(
    tournament: Tournament,
    busts: list[tuple[Any, Any, int, Hand | None]],
    busted: list[Entry],
    logged: list[dict],
) -> None:
    """Credit the knockouts and pay the bounties of one group of busts (``busted``: their
    entries, whose ``bounty_won`` the caller saves; ``logged``: their log lines, completed
    here; both in the same order)."""
    progressive = tournament.bounty_kind == BountyKind.PROGRESSIVE
    _snapshots_read([hand for _, _, _, hand in busts if hand is not None])
    pots: dict[int, Pots] = {}
    credited = [
        _knocker_players(hand, seat.player_id, pots) if hand is not None else []
        for _locked, seat, _stack, hand in busts
    ]
    wanted = {player for players in credited for player in players}
    playing = (
        {
            entry.player_id: entry
            for entry in Entry.objects.filter(
                tournament=tournament, status=EntryStatus.PLAYING, player_id__in=wanted
            )
        }
        if wanted
        else {}
    )
    changed: dict[int, Entry] = {}
    for players, entry, line in zip(credited, busted, logged, strict=True):
        players = [p for p in players if p in playing]
        head = _head(tournament, entry)
        line["knocked_out_by"] = []
        if not players:
            entry.bounty_won += head  # nobody to credit: the bounty goes back to its owner
            line["bounty_returned"] = head
            continue
        shares = knockout_shares(players)
        payments = bounty_payments(head, players, progressive=progressive)
        for player in players:
            knocker = changed.setdefault(player, playing[player])
            share = shares[player]
            knocker.knockouts += Decimal(share.numerator) / Decimal(share.denominator)
            pocket, onto_head = payments[player]
            knocker.bounty_won += pocket
            knocker.bounty_gained += onto_head
            line["knocked_out_by"].append(
                {
                    "entry": knocker.id,
                    "player": player,
                    "share": f"{share.numerator}/{share.denominator}",
                    "bounty": pocket,
                    "onto_head": onto_head,
                }
            )
    for knocker in changed.values():
        knocker.knockouts = knocker.knockouts.quantize(Decimal("0.0001"))
    if changed:
        rows.update_each(list(changed.values()), ["knockouts", "bounty_won", "bounty_gained"])


def bounty_collect(tournament: Tournament, winner: Entry) -> None:
    """The winner collects the bounty on their own head."""
    if tournament.bounty:
        winner.bounty_won += _head(tournament, winner)
        winner.save(update_fields=["bounty_won"])
