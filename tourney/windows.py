"""What can still be bought, by levels played: late registration, re-entry, rebuys, add-on.

Each window runs until the end of its level (and the break after it); the clock only moves
forward, so a window once over stays over. When late registration and re-entry are over the
field is final (finishing places can be given at elimination); when rebuys and the add-on are
over too, the prize pool is final (and so are the prizes; hand-for-hand waits for this).
Once the money is reached no entry joins, window or not (``money_check``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.errors import Conflict
from tourney.codes import Code
from tourney.models import EntryStatus, Status, Tournament
from tourney.planning.levels import level_number
from tourney.selectors import payout_structure, schedule_entries


def levels_started(tournament: Tournament) -> int:
    """The number of the level in force (at a break: of the level before it)."""
    return level_number(schedule_entries(tournament.schedule_id), tournament.level_index)


def _open_until(tournament: Tournament, last_level: int, level: int | None) -> bool:
    if tournament.status not in (Status.RUNNING, Status.PAUSED):
        return False
    return (levels_started(tournament) if level is None else level) <= last_level


def late_registration_open(tournament: Tournament, *, level: int | None = None) -> bool:
    """Registering while running: until the end of level ``late_reg_levels``, unless the
    director closed it by hand. ``level``: the level in force, if the caller knows it."""
    if tournament.late_reg_closed:
        return False
    return _open_until(tournament, tournament.late_reg_levels, level)


def re_entry_open(tournament: Tournament, *, level: int | None = None) -> bool:
    """Re-entering (if any is allowed): until the end of level ``re_entry_levels``."""
    return tournament.re_entry_max > 0 and _open_until(
        tournament, tournament.re_entry_levels, level
    )


def rebuy_open(tournament: Tournament, *, level: int | None = None) -> bool:
    """Rebuying (if any is allowed): until the end of level ``rebuy_levels``."""
    return tournament.rebuy_max > 0 and _open_until(tournament, tournament.rebuy_levels, level)


def add_on_open(tournament: Tournament, *, level: int | None = None) -> bool:
    """The add-on (if offered): until the end of level ``add_on_level``."""
    return tournament.add_on_level > 0 and _open_until(tournament, tournament.add_on_level, level)


def field_final(tournament: Tournament, *, level: int | None = None) -> bool:
    """No entry can join any more: the tournament started and late registration and
    re-entry are over."""
    level = levels_started(tournament) if level is None else level
    return (
        tournament.status != Status.REGISTERING
        and not late_registration_open(tournament, level=level)
        and not re_entry_open(tournament, level=level)
    )


def pool_final(tournament: Tournament, *, level: int | None = None) -> bool:
    """The prize pool can no longer grow: the field is final, rebuys and the add-on are over."""
    level = levels_started(tournament) if level is None else level
    return (
        field_final(tournament, level=level)
        and not rebuy_open(tournament, level=level)
        and not add_on_open(tournament, level=level)
    )


def windows_open(tournament: Tournament) -> list[str]:
    """The buying windows still open, each with its last level ("rebuys until the end of
    level 2")."""
    level = levels_started(tournament)
    windows = (
        ("late registration", late_registration_open, tournament.late_reg_levels),
        ("re-entry", re_entry_open, tournament.re_entry_levels),
        ("rebuys", rebuy_open, tournament.rebuy_levels),
        ("the add-on", add_on_open, tournament.add_on_level),
    )
    return [
        f"{name} until the end of level {last}"
        for name, is_open, last in windows
        if is_open(tournament, level=level)
    ]


def standings_final(tournament: Tournament) -> tuple[bool, bool]:
    """Whether finishing places, and prizes, are given at elimination: places once the field
    is final, prizes once the prize pool is final too."""
    level = levels_started(tournament)
    return field_final(tournament, level=level), pool_final(tournament, level=level)


def deal_check(tournament: Tournament, *, purchase: str) -> None:
    """Refuse any purchase (409) once a deal is recorded: the deal shared out the prize pool,
    so the pool must not grow and no newcomer may play for prizes already shared."""
    if tournament.deal:
        raise Conflict(
            _("a deal was made: no %(purchase)s any more") % {"purchase": purchase},
            code=Code.DEAL_MADE,
        )


def money_check(tournament: Tournament, *, purchase: str) -> None:
    """Refuse a new entry (409) once the money is reached (the players left are all paid): a
    player busted in the money re-entering, or a newcomer, would play for prizes the players
    out already earned and change the paid places."""
    left = tournament.entries.filter(status=EntryStatus.PLAYING).count()
    paid = payout_structure(tournament).places
    if left <= paid:
        raise Conflict(
            _("the money is reached (%(left)s left, %(paid)s paid): no %(purchase)s any more")
            % {"left": left, "paid": paid, "purchase": purchase},
            code=Code.IN_THE_MONEY,
        )
