"""Client seeds: what the seated players add to the shuffle of a table's next hand.

A hand's server seed is drawn, and its commitment published, before the hand before it is
dealt (``Table.next_seed``; ``next_commitment`` in the table view and the previous
``hand_start`` event). A seated human player sends a client seed for the next hand naming
that commitment; one naming any other (the hand it was meant for has started) is refused, so
no client seed counts for a hand unless it was chosen after the hand's server seed was fixed.
The seeds stay secret until the hand starts; its ``hand_start`` event then publishes them in
lineup order, with the card root they make with the server seed. Bots, whom the house
controls, send none, and a bot's seed is never read. See docs/fairness.md.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from games.codes import Code
from games.engine.fairness import CLIENT_SEED_MAX, commitment
from games.errors import Conflict, Forbidden, Invalid
from games.locks import table_for_update
from games.models import Player, Seat, TableStatus


@dataclass(frozen=True)
class SentSeed:
    """A client seed the table holds for its next hand."""

    commitment: str
    client_seed: str
    hand_number: int


def client_seed_send(
    *, table_id: int, player: Player, commitment_hex: str, client_seed: str
) -> SentSeed:
    """Hold ``client_seed`` for the table's next hand, whose server seed ``commitment_hex``
    must name. Sending the same seed again is harmless; another one for the same hand is
    refused (what was accepted is what the hand uses)."""
    if player.is_bot:
        raise Forbidden(
            _(
                "bots send no client seed: the house controls them, so their entropy "
                "would protect nobody"
            ),
            code=Code.BOT_CLIENT_SEED,
        )
    if not client_seed or len(client_seed) > CLIENT_SEED_MAX or not client_seed.isprintable():
        raise Invalid(
            _(
                "a client seed is 1 to %(CLIENT_SEED_MAX)s printable characters: "
                "choose one without control characters"
            )
            % {"CLIENT_SEED_MAX": CLIENT_SEED_MAX},
            code=Code.BAD_CLIENT_SEED,
        )
    with transaction.atomic():
        table = table_for_update(table_id)  # a hand starting waits for this, or this for it
        if table.status == TableStatus.CLOSED:
            raise Conflict(_("the table is closed"), code=Code.CLOSED)
        if not Seat.objects.filter(table=table, player=player).exists():
            raise Conflict(_("you are not seated at this table"), code=Code.NOT_SEATED)
        current = commitment(bytes(table.next_seed))
        if not hmac.compare_digest(current, commitment_hex.lower()):
            raise Conflict(
                _(
                    "that is not the commitment of this table's next hand (its hand has "
                    "started, or it never was): send a new client seed naming "
                    "next_commitment"
                ),
                code=Code.STALE_COMMITMENT,
                detail={"next_commitment": current},
            )
        key = str(player.pk)
        held = table.next_client_seeds.get(key)
        if held is not None and held != client_seed:
            raise Conflict(
                _("you sent another client seed for this hand already: it is the one used"),
                code=Code.CLIENT_SEED_SENT,
            )
        if held is None:
            table.next_client_seeds = {**table.next_client_seeds, key: client_seed}
            table.save(update_fields=["next_client_seeds"])
        return SentSeed(current, client_seed, table.hands_played + 1)


def hand_client_seeds(players: Sequence[Player], sent: Mapping[str, str]) -> list[str]:
    """The client seeds of a starting hand, in lineup order: each human's sent for it
    (``Table.next_client_seeds``), empty for a bot or a player who sent none."""
    return ["" if p.is_bot else sent.get(str(p.pk), "") for p in players]
