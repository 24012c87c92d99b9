"""The codes of the leagues' refusals: ``{"error": {"code": ...}}`` in an API answer.

Each value is the string clients see; ``config.error_codes`` lists every app's codes as one
enum in the OpenAPI error schema. This module imports nothing, so any layer may use it.
"""

from enum import StrEnum


class Code(StrEnum):
    """Why a league, season or season event request was refused (nothing was changed)."""

    # Who may see and direct what.
    NOT_DIRECTOR = "not_director"
    """Only staff and the club's directors may do this."""
    NO_CLUB = "no_club"
    """No such club."""
    NO_LEAGUE = "no_league"
    """No such league in the caller's clubs."""
    NO_SEASON = "no_season"
    """No such season in the caller's clubs."""
    NO_EVENT = "no_event"
    """No such season event in the caller's clubs."""
    NO_TOURNAMENT = "no_tournament"
    """No such tournament of the league's club."""

    # Leagues and seasons.
    NAME_TAKEN = "name_taken"
    """The club has a league of that name."""
    SEASON_DATES = "season_dates"
    """A season that ends before it starts."""
    SEASON_OVERLAP = "season_overlap"
    """The dates overlap another season of the league."""
    BEST_OF = "best_of"
    """``best_of`` counts more events than are planned."""
    TIE_BREAKS = "tie_breaks"
    """Tie-breaks that are unknown or named twice."""
    POT_PAYOUT = "pot_payout"
    """A season pot's payout that is not a valid structure."""
    FINALE_CHIP_BONUS = "finale_chip_bonus"
    """A finale chip bonus for more ranks than qualify, or growing with a worse rank."""
    FORMULA = "formula"
    """A points formula that does not check or fails on a finish."""
    SEASON_CLOSED = "season_closed"
    """The season is closed (its pot was paid)."""
    EVENTS_WAITING = "events_waiting"
    """Events still wait for their tournaments to finish."""

    # Season events and their results.
    EVENT_DATE = "event_date"
    """An event dated outside the season."""
    CANCELLED = "cancelled"
    """The tournament was cancelled."""
    ALREADY_ATTACHED = "already_attached"
    """The tournament counts in a season already."""
    LIVE_EVENT = "live_event"
    """A live event has no tournament to read results from."""
    ONLINE_EVENT = "online_event"
    """An online event's results come from its tournament."""
    NOT_FINISHED = "not_finished"
    """The tournament has not finished."""
    NO_RESULTS = "no_results"
    """A live event needs its results."""
    PLACE_TWICE = "place_twice"
    """A place given twice."""
    PLACE_GAP = "place_gap"
    """The places leave a gap."""
    PLAYER_TWICE = "player_twice"
    """A player with two results."""
    UNKNOWN_PLAYER = "unknown_player"
    """No such player."""
    NOT_A_MEMBER = "not_a_member"
    """A league's results take the members of its club only."""
    KNOCKOUTS = "knockouts"
    """More knockouts than the field allows."""

    # The finale.
    FINALE_REGISTERED = "finale_registered"
    """The season's finale is registered already."""
    NO_QUALIFIERS = "no_qualifiers"
    """Nobody qualifies for the finale."""
    STARTED = "started"
    """The finale tournament has started: its qualifiers are seated at the draw."""
