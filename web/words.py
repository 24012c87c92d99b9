"""The words the pages show for the services' codes: a tournament's status and mode, a table's
status and why it holds, a hi-lo pot's halves, a season's tie-breaks, why a player moves. The
codes stay the services' (and the API's); only their names here are translated."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

WORDS = {
    # tournaments (tourney.models.Status, Mode)
    "registering": _("registering"),
    "running": _("running"),
    "paused": pgettext_lazy("status", "paused"),
    "finished": _("finished"),
    "cancelled": _("cancelled"),
    "online": _("online"),
    "live": _("live"),
    # tables (games.models.TableStatus, HoldReason)
    "open": _("open"),
    "closed": _("closed"),
    "live: dealt by the club": _("live: dealt by the club"),
    "tournament paused": _("tournament paused"),
    "break": _("break"),
    "table breaking": _("table breaking"),
    "waiting for players to move in": _("waiting for players to move in"),
    "hand-for-hand: waiting for the other tables": _("hand for hand: waiting for the other tables"),
    "tournament: after the hand": _("tournament: after the hand"),
    # a hand's awards (games.engine.views): the halves of a hi-lo pot, the no-low note
    "high": pgettext_lazy("half of a pot", "high"),
    "low": pgettext_lazy("half of a pot", "low"),
    "no low qualified: the high hand takes the whole pot": _(
        "no low qualified: the high hand takes the whole pot"
    ),
    # a season's tie-breaks (leagues.standings.TIE_BREAKS)
    "wins": _("wins"),
    "best_finish": _("best finish"),
    "final_tables": _("final tables"),
    "cashes": _("cashes"),
    "knockouts": _("knockouts"),
    "net_winnings": _("net winnings"),
    "events_played": _("events played"),
    "fewest_events": _("fewer events played"),
    # moves (tourney.planning.balancing.MoveReason)
    "balance": _("balancing"),
    "final_table": _("final table"),
}


def word(code: str) -> str:
    """The page's word for a service's code ("paused" -> "σε παύση"); an unknown code as is."""
    return str(WORDS.get(code, code))
