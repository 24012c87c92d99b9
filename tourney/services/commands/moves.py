"""Live moves: staff confirm a move the balancing asked for was carried out."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Conflict, NotFound
from tourney.codes import Code
from tourney.models import Move, MoveStatus
from tourney.services.steps.locks import tournament_for_update
from tourney.services.steps.log import event_append


def move_acknowledge(*, tournament_id: int, move_id: int) -> Move:
    """Staff confirm a live move was carried out."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        move = Move.objects.filter(tournament=tournament, pk=move_id).first()
        if move is None:
            raise NotFound(
                _("no move %(move_id)s in this tournament") % {"move_id": move_id},
                code=Code.NO_MOVE,
            )
        if move.status != MoveStatus.PENDING:
            raise Conflict(
                _("the move is already %(status)s") % {"status": move.status}, code=Code.NOT_PENDING
            )
        move.status = MoveStatus.ACKNOWLEDGED
        move.acknowledged_at = timezone.now()
        move.save(update_fields=["status", "acknowledged_at"])
        event_append(tournament, "move_done", {"move": move.id})
        return move
