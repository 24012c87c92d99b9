"""Every web page, as every kind of visitor, with odd ids, odd forms and odd htmx headers:
never a 5xx (nor an exception out of the view), a refusal says something, a refused request
changes nothing, and a GET changes nothing at all.

The URLs come from the resolver (namespace ``web``), so a new page is covered without a line
here; a URL argument this file cannot fill fails the test (add it to ``_world``'s ids). The
forms come from the pages: every form a page draws is read (its action, method, fields and
the values the page gave them), so a new form or field is fuzzed too.

Each call runs in a savepoint rolled back afterwards, so every call meets the same world: a
ring table with a hand running, one with others, a paused and a closed one; tournaments
registering, running (online with a hand dealt, live with a move to acknowledge), paused,
on a break, finished, cancelled and of another club; a league season in each of two clubs;
visitors of every kind. The sweeps (each failure is collected, all are reported at the end):

1. every page as every visitor, GET and POST, with and without ``HX-Request``; and as
   anonymous with htmx from odd pages (``HX-Current-URL``: the sign-in sends it back there);
2. every kind of id for each URL argument (someone else's, missing, zero, huge), as a player
   and as staff, POSTing the page's form if it drew one;
3. every field of every kind of form, one at a time, missing or odd (empty, not a number,
   negative, huge, an unknown choice, an id of something missing or someone else's), the
   other fields as the page gave them, sent as the visitor the page drew it for;
4. Hypothesis: the pages' forms with fields changed, dropped or added, and forms of any
   fields, by any visitor to any kind of ids, with odd htmx headers. To hunt further, raise
   ``EXAMPLES_PER_PATTERN`` and set ``derandomize=False`` for a run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from itertools import cycle, product
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import ERROR, get_messages
from django.db import transaction
from django.test import Client
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve, reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.throttling import SimpleRateThrottle

from clubs.models import Club, Membership, Role
from games.models import Hand, Offer, Seat, Table, TableEvent, WaitEntry
from games.services import hands, waitlist
from games.services.floor_tables import game_create
from games.services.passwords import password_link_create
from games.services.players import player_create
from games.services.seating import seat_sit
from games.services.tables import table_set_status
from games.services.waitlist import entry_walk_in
from leagues.models import League, Season
from leagues.services.events import event_enter_live
from leagues.services.seasons import season_create
from money.models import Account, Transaction
from tests.games.factories import make_player, make_table
from tests.games.floor import fill_table, make_game, tables_of
from tests.tourney.tournaments import make_tournament, seats_of, table_of
from tourney.models import Entry, Move, Tournament, TournamentEvent
from tourney.services.commands.clock import tournament_pause
from tourney.services.commands.director_clock import clock_break
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.live import live_report_busts
from tourney.services.commands.registration import entry_register
from tourney.services.commands.schedules import schedule_create
from tourney.services.commands.setup import tournament_cancel

pytestmark = pytest.mark.django_db

EXAMPLES_PER_PATTERN = 25
HUGE = 10**30
LEVEL = {"game": "stud_hi", "ante": 5, "bring_in": 10, "small_bet": 20, "big_bet": 40}
MISSING = 10**6
"""An id no object has."""


@dataclass(frozen=True)
class Pattern:
    name: str
    route: str
    arguments: tuple[str, ...]


def web_patterns() -> list[Pattern]:
    """Every URL pattern under the ``web`` namespace, with the names of its arguments."""
    found: list[Pattern] = []

    def walk(patterns: list[Any], prefix: str, inside: bool, arguments: tuple[str, ...]) -> None:
        for entry in patterns:
            names = arguments + tuple(entry.pattern.regex.groupindex)
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, route, inside or entry.namespace == "web", names)
            elif inside and isinstance(entry, URLPattern):
                assert entry.name, f"web URL {route!r} has no name: name it so it can be reversed"
                found.append(Pattern(entry.name, route, names))

    walk(get_resolver().url_patterns, "/", False, ())
    return found


class Visitor:
    """A test client signed in as ``user`` (or anonymous), made once: building a client's
    middleware is slow (WhiteNoise lists the static files). Its cookies are put back before
    every call, as a rolled-back call may have signed it out of its session or into another
    one (and messages travel in a cookie)."""

    def __init__(self, user: Any) -> None:
        self.client = Client(raise_request_exception=True)
        if user is not None:
            self.client.force_login(user)
        self.cookies = {name: morsel.value for name, morsel in self.client.cookies.items()}

    def fresh(self) -> Client:
        self.client.cookies = SimpleCookie(self.cookies)
        return self.client


@dataclass
class World:
    visitors: dict[str, Visitor]
    """Who visits: their name -> their client."""
    ids: dict[str, dict[str, int | str]]
    """URL argument -> what the id is -> the id; the first one is the argument's usual value."""
    odd_ids: dict[str, int]
    """Ids for forms: what the id is -> the id (entries, moves, players, tables, none)."""


def _world() -> World:
    ours, theirs = Club.objects.create(name="Ours"), Club.objects.create(name="Theirs")
    alice = make_player("alice")  # at a ring table, in tournaments, a member of Ours
    bob = make_player("bob")  # no seat, no entry, no club
    dana = make_player("dana")  # directs Ours
    boss = make_player("boss", staff=True)
    clerk = get_user_model().objects.create_user(username="clerk", password="pw", is_staff=True)
    alice_member = Membership.objects.create(club=ours, user=alice.user, role=Role.MEMBER)
    dana_director = Membership.objects.create(club=ours, user=dana.user, role=Role.DIRECTOR)

    ring = make_table(name="Alice's table")
    seat_sit(table_id=ring.id, player=alice, seat_number=1, buy_in=200)
    seat_sit(
        table_id=ring.id,
        player=make_player(bot="station"),
        seat_number=2,
        buy_in=200,
        by_staff=True,
    )
    hands.table_advance(ring.id)
    others = make_table(name="Carol's table")
    seat_sit(table_id=others.id, player=make_player("carol"), seat_number=3, buy_in=300)
    paused = make_table(name="Paused table")
    table_set_status(table_id=paused.id, status="paused")
    closed = make_table(name="Closed table")
    table_set_status(table_id=closed.id, status="closed")

    registering = make_tournament(name="Registering", players=2)
    entry_register(tournament_id=registering.id, player_id=alice.id)
    online = make_tournament(name="Online", players=3)
    entry_register(tournament_id=online.id, player_id=alice.id)
    tournament_start(tournament_id=online.id)
    hands.table_advance(table_of(online, 1).id)
    live = make_tournament(name="Live", players=7, mode="live", table_size=4)
    tournament_start(tournament_id=live.id)
    out = [player for player, _ in sorted(seats_of(table_of(live, 2).id).values())[:2]]
    busted = Entry.objects.filter(tournament=live, player_id__in=out)
    live_report_busts(tournament_id=live.id, busts={entry.id: 1000 for entry in busted})
    move = Move.objects.get(tournament=live, status="pending")
    halted = make_tournament(name="Paused", players=3)
    tournament_start(tournament_id=halted.id)
    tournament_pause(tournament_id=halted.id)
    on_break = make_tournament(name="On a break", players=3)
    tournament_start(tournament_id=on_break.id)
    clock_break(tournament_id=on_break.id, minutes=5)
    finished = make_tournament(name="Finished", players=2, mode="live")
    tournament_start(tournament_id=finished.id)
    loser = Entry.objects.filter(tournament=finished).first()
    live_report_busts(tournament_id=finished.id, busts={loser.id: 1000})
    cancelled = make_tournament(name="Cancelled", players=2)
    tournament_cancel(tournament_id=cancelled.id)
    elsewhere = make_tournament(name="Theirs", players=3, mode="live")
    tournament_start(tournament_id=elsewhere.id)
    Tournament.objects.exclude(pk=elsewhere.pk).update(club=ours)  # no service sets a club yet
    Tournament.objects.filter(pk=elsewhere.pk).update(club=theirs)

    today = timezone.localdate()
    seasons = [
        season_create(
            league=League.objects.create(club=club, name=f"{club.name} league"),
            name="Winter",
            starts_on=today,
            ends_on=today.replace(year=today.year + 1),
            formula="reverse_rank",
        ).id
        for club in (ours, theirs)
    ]
    event_enter_live(
        season=Season.objects.get(pk=seasons[0]),
        name="Week 1",
        played_on=today,
        buy_in=50,
        results=[
            {"player": alice.id, "place": 1, "prize": 150},  # the club's members
            {"player": dana.id, "place": 2},
        ],
    )
    game = make_game()
    fill_table(tables_of(game)[0])
    waiting = waitlist.entry_join(game_id=game.id, player=alice)
    running_hand = Hand.objects.get(table=ring, status="running")
    theirs_schedule = schedule_create(
        name="Theirs", chip_unit=5, entries=[{"minutes": 20, **LEVEL}], club_id=theirs.id
    )
    live_game = game_create(name="Stud", variant="stud_hi", seat_count=2, mode="live", **LEVEL)
    walk_in = entry_walk_in(game_id=live_game.id, name="Walker", by=boss.user)
    newcomer = player_create(username="newcomer", password=None, display_name="Newcomer")
    link = password_link_create(player=newcomer)
    ids: dict[str, dict[str, int | str]] = {
        "table_id": {
            "alice's ring table": ring.id,
            "a ring table alice is not at": others.id,
            "a paused ring table": paused.id,
            "a closed ring table": closed.id,
            "alice's tournament table": table_of(online, 1).id,
            "a live tournament's table": table_of(live, 1).id,
            "no table": MISSING,
            "zero": 0,
            "huge": HUGE,
        },
        "tournament_id": {
            "live, running": live.id,
            "registering": registering.id,
            "online, running": online.id,
            "paused": halted.id,
            "on a break": on_break.id,
            "finished": finished.id,
            "cancelled": cancelled.id,
            "another club's": elsewhere.id,
            "no tournament": MISSING,
            "zero": 0,
            "huge": HUGE,
        },
        "move_id": {"the live tournament's": move.id, "no move": MISSING, "huge": HUGE},
        "season_id": {
            "alice's club's": seasons[0],
            "another club's": seasons[1],
            "no season": MISSING,
            "huge": HUGE,
        },
        "schedule_id": {
            "the house's": registering.schedule_id,
            "another club's": theirs_schedule.id,
            "no schedule": MISSING,
            "huge": HUGE,
        },
        "game_id": {
            "a running game": game.id,
            "a live ring game": live_game.id,
            "no game": MISSING,
            "zero": 0,
            "huge": HUGE,
        },
        "entry_id": {
            "alice's wait-list entry": waiting.id,
            "a walk-in waiting": walk_in.id,
            "no entry": MISSING,
            "huge": HUGE,
        },
        "hand_id": {"alice's running hand": running_hand.id, "no hand": MISSING, "huge": HUGE},
        "league_id": {
            "alice's club's": Season.objects.get(pk=seasons[0]).league_id,
            "another club's": Season.objects.get(pk=seasons[1]).league_id,
            "no league": MISSING,
            "huge": HUGE,
        },
        "uid": {"a new account's": link.uid, "not base64": "!!", "no account": "OTk5OTk5"},
        "token": {"its set-password link's": link.token, "forged": "forged-token"},
        "player_id": {"alice": alice.id, "bob, of no club": bob.id, "none": MISSING, "huge": HUGE},
        "club_id": {
            "dana's club": ours.id,
            "another club": theirs.id,
            "none": MISSING,
            "huge": HUGE,
        },
        "member_id": {
            "alice's membership": alice_member.id,
            "dana's own": dana_director.id,
            "none": MISSING,
            "huge": HUGE,
        },
    }
    odd_ids = {
        "a playing entry": Entry.objects.filter(tournament=live, status="playing").first().id,
        "a busted entry": busted.first().id,
        "another club's entry": Entry.objects.filter(tournament=elsewhere).first().id,
        "alice's entry": Entry.objects.get(tournament=registering, player=alice).id,
        "a move": move.id,
        "another player": bob.id,
        "another table": others.id,
        "nothing": MISSING,
    }
    visitors = {
        "anonymous": None,
        "a player": alice.user,
        "another player": bob.user,
        "a club director": dana.user,
        "staff": boss.user,
        "staff without a player profile": clerk,
    }
    return World({name: Visitor(user) for name, user in visitors.items()}, ids, odd_ids)


def fingerprint() -> tuple[Any, ...]:
    """What a refused request must leave as it was: seats, tables, hands, money, entries,
    tournaments and their clocks, moves, the floor's lists and the event logs."""
    return (
        list(
            Seat.objects.order_by("pk").values_list(
                "pk", "player_id", "stack", "sitting_out", "leaving"
            )
        ),
        list(Table.objects.order_by("pk").values_list("pk", "seq", "status", "hands_played")),
        list(Hand.objects.order_by("pk").values_list("pk", "status")),
        list(Account.objects.order_by("pk").values_list("pk", "balance")),
        Transaction.objects.count(),
        list(Entry.objects.order_by("pk").values_list("pk", "status")),
        list(
            Tournament.objects.order_by("pk").values_list(
                "pk",
                "status",
                "level_index",
                "level_ends_at",
                "break_ends_at",
                "break_pending_minutes",
                "paused_remaining_ms",
            )
        ),
        list(Move.objects.order_by("pk").values_list("pk", "status")),
        WaitEntry.objects.count(),
        Offer.objects.count(),
        TournamentEvent.objects.count(),
        TableEvent.objects.count(),
    )


@dataclass(frozen=True)
class Call:
    pattern: Pattern
    arguments: dict[str, tuple[str, int | str]]
    """URL argument -> (what the id is, the id)."""
    visitor: str
    method: str
    htmx: bool
    data: dict[str, Any]
    current_url: str | None = None
    """The page htmx says it is on (``HX-Current-URL``); None: the called URL's own page."""

    def headers(self) -> dict[str, str]:
        if not self.htmx:
            return {}
        page = f"http://testserver{self.url()}" if self.current_url is None else self.current_url
        return {"HX-Request": "true", "HX-Current-URL": page}

    def url(self) -> str:
        kwargs = {name: value for name, (_, value) in self.arguments.items()}
        return reverse(f"web:{self.pattern.name}", kwargs=kwargs)

    def __str__(self) -> str:
        ids = ", ".join(f"{name}: {what}" for name, (what, _) in self.arguments.items())
        return (
            f"{self.method} {self.url()} ({ids or 'no arguments'}) as {self.visitor}"
            f"{' with HX-Request' if self.htmx else ''}"
            f"{f' from {self.current_url!r}' if self.htmx and self.current_url is not None else ''}"
            f", data {self.data!r}"
        )


def _sent_to_sign_in(response: Any) -> bool:
    if "HX-Redirect" in response.headers:
        return response["HX-Redirect"].startswith("/accounts/login/")
    return response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def refused(response: Any) -> bool:
    """The page said no: a 4xx, an error message, or off to the sign-in page."""
    if response.status_code >= 400 or _sent_to_sign_in(response):
        return True
    return any(m.level == ERROR for m in get_messages(response.wsgi_request))


def perform(world: World, call: Call) -> Any:
    """Make the call in a savepoint rolled back afterwards; fail naming it on an exception or
    a 5xx, on a refusal that changed something or a GET that did, and on a refusal that says
    nothing."""
    SimpleRateThrottle.cache.clear()  # the sign-in form answers, not its rate limit
    with transaction.atomic():
        client = world.visitors[call.visitor].fresh()
        before = fingerprint()
        send = client.get if call.method == "GET" else client.post
        try:
            response = send(call.url(), call.data, headers=call.headers())
        except Exception as error:
            raise AssertionError(f"{call}: raised {error!r}") from error
        assert response.status_code < 500, f"{call}: {response.status_code}"
        if call.method == "GET" or refused(response):
            changed = fingerprint() != before
            assert not changed, f"{call}: answered {response.status_code}, but changed the data"
        if response.status_code >= 400 and response.status_code != 405:
            assert response.content.strip(), f"{call}: {response.status_code} with no message"
        transaction.set_rollback(True)
    return response


def id_choices(world: World, pattern: Pattern) -> list[dict[str, tuple[str, int | str]]]:
    """Every combination of the kinds of ids the pattern's arguments can be given."""
    unknown = [name for name in pattern.arguments if name not in world.ids]
    if unknown:
        pytest.fail(f"web:{pattern.name} ({pattern.route}) takes {unknown}: add them to _world")
    choices = [list(world.ids[name].items()) for name in pattern.arguments]
    return [dict(zip(pattern.arguments, combo, strict=True)) for combo in product(*choices)]


def usual_ids(world: World, pattern: Pattern) -> dict[str, tuple[str, int | str]]:
    return id_choices(world, pattern)[0]


@dataclass
class DrawnForm:
    """A form as a page drew it: where it goes, how, and its fields as a browser sends them
    (a select's first option, each box as the page ticked it); a box not ticked is kept
    aside, as a field the form may send."""

    action: str
    method: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    unticked: list[tuple[str, str]] = field(default_factory=list)


class FormReader(HTMLParser):
    """The forms of a page (the CSRF token left out: the test client does not check it)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[DrawnForm] = []
        self._form: DrawnForm | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        name = attributes.get("name", "")
        if tag == "form":
            method = attributes.get("method", "get").upper()
            self._form = DrawnForm(attributes.get("action", ""), method)
            self.forms.append(self._form)
        elif self._form is None or name == "csrfmiddlewaretoken":
            return
        elif tag == "option" and self._select is not None:
            self._form.fields.append((self._select, attributes.get("value", "")))
            self._select = None  # the first option is the one sent
        elif not name:
            return
        elif tag == "select":
            self._select = name
        elif attributes.get("type") in ("checkbox", "radio"):
            ticked = "checked" in attributes
            box = (name, attributes.get("value", "on"))
            (self._form.fields if ticked else self._form.unticked).append(box)
        elif tag in ("input", "button", "textarea"):
            self._form.fields.append((name, attributes.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


@dataclass(frozen=True)
class Drawn:
    """A form a page drew for a visitor: the call that sends it as drawn, and the boxes it
    left unticked."""

    call: Call
    unticked: tuple[tuple[str, str], ...]

    def names(self) -> list[str]:
        """Each field's name, those numbered by entry (``start_12``) only for the first one."""
        names: dict[str, str] = {}
        for name in [*self.call.data, *(box for box, _ in self.unticked)]:
            names.setdefault(re.sub(r"_\d+$", "_<n>", name), name)
        return sorted(names.values())

    def unticked_values(self, name: str) -> list[str]:
        return [value for box, value in self.unticked if box == name]


@dataclass
class Forms:
    """Every distinct form the pages drew (by URL and fields), as drawn for the first visitor
    it was drawn for."""

    world: World
    patterns: dict[str, Pattern]
    drawn: dict[tuple[Any, ...], Drawn] = field(default_factory=dict)

    def read(self, page_url: str, html: str, visitor: str) -> None:
        reader = FormReader()
        reader.feed(html)
        for form in reader.forms:
            url = (form.action or page_url).split("?")[0]
            try:
                target = resolve(url)
            except Resolver404:
                continue
            pattern = self.patterns.get(target.url_name) if target.namespace == "web" else None
            if pattern is None:
                continue
            arguments = {}
            for name in pattern.arguments:
                value = target.kwargs[name]
                kinds = {i: kind for kind, i in self.world.ids[name].items()}
                arguments[name] = (kinds.get(value, "from the page"), value)
            data: dict[str, list[str]] = {}
            for name, value in form.fields:
                data.setdefault(name, []).append(value)
            call = Call(pattern, arguments, visitor, form.method, htmx=False, data=data)
            drawn = Drawn(call, tuple(form.unticked))
            self.drawn.setdefault((url, tuple(drawn.names())), drawn)

    def of(self, pattern: Pattern) -> list[Drawn]:
        """The pattern's forms, the first with each set of fields first."""
        forms = [f for f in self.drawn.values() if f.call.pattern == pattern]
        firsts = self.kinds(pattern)
        return firsts + [f for f in forms if f not in firsts]

    def kinds(self, pattern: Pattern) -> list[Drawn]:
        """The pattern's first form with each set of fields."""
        firsts: dict[tuple[str, ...], Drawn] = {}
        for form in self.drawn.values():
            if form.call.pattern == pattern:
                firsts.setdefault(tuple(form.names()), form)
        return list(firsts.values())

    def names(self) -> list[str]:
        return sorted({name for form in self.drawn.values() for name in form.names()})

    def values(self) -> list[str]:
        return sorted(
            {
                value
                for form in self.drawn.values()
                for values in form.call.data.values()
                for value in values
            }
            | {value for form in self.drawn.values() for _, value in form.unticked}
        )


ODD_VALUES = [
    "",
    " ",
    "0",
    "-1",
    "1",
    "100",
    str(HUGE),
    str(-HUGE),
    str(2**63),
    "1e3",
    "1.5",
    "NaN",
    "\u00b2",
    "\u0663",
    "1_000",
    " 7 ",
    "on",
    "coin",
    "https://elsewhere.example/",
    "\x00",
]
"""Empty, blank, not a number, negative, huge, an unknown choice, a foreign URL, a NUL."""
ODD_PAGES = [
    "",
    "http://testserver/play/",
    "/play/",
    "https://elsewhere.example/play/",
    "http://[",
    "http://testserver:x/",
    "javascript:alert(1)",
]
"""Pages htmx could say it is on (``HX-Current-URL``), and some it could not."""


@dataclass
class Sweep:
    world: World
    forms: Forms
    served: dict[str, list[str]] = field(default_factory=dict)
    """URL pattern -> the visitors it serves (not refused at the door: 403, 405, sign in)."""
    pages: set[str] = field(default_factory=set)
    """URL patterns that answer a GET with a page."""
    failures: list[str] = field(default_factory=list)

    def call(self, call: Call) -> None:
        try:
            response = perform(self.world, call)
        except AssertionError as error:
            self.failures.append(str(error))
            return
        html = "text/html" in response.get("Content-Type", "")
        if response.status_code == 200 and html and not call.data:  # pages echo what was sent
            self.forms.read(call.url(), response.content.decode(), call.visitor)
        if call.method == "GET" and response.status_code == 200:
            self.pages.add(call.pattern.name)
        if response.status_code not in (403, 405) and not _sent_to_sign_in(response):
            served = self.served.setdefault(call.pattern.name, [])
            if call.visitor not in served:
                served.append(call.visitor)

    def visitors(self, pattern: Pattern) -> list[str]:
        return self.served.get(pattern.name) or sorted(self.world.visitors)

    def odd_values(self) -> list[str]:
        return ODD_VALUES + [str(i) for i in self.world.odd_ids.values()]


def _fuzz(sweep: Sweep, pattern: Pattern) -> None:
    """Hypothesis: a form the page drew with fields changed, dropped or added, or a form of
    any page's fields, sent by anyone to any kind of ids, with or without htmx."""
    world, forms = sweep.world, sweep.forms
    value = st.one_of(
        st.sampled_from(forms.values() + sweep.odd_values()),
        st.integers(min_value=-(10**40), max_value=10**40).map(str),
        st.text(max_size=12),
    )
    values = st.one_of(value, st.lists(value, max_size=3))
    names = forms.names() or ["x"]
    numbered = sorted({m.group(1) for n in names if (m := re.match(r"(.*_)\d+$", n))}) or ["x_"]
    name = st.one_of(
        st.sampled_from(names),
        st.builds("{}{}".format, st.sampled_from(numbered), st.one_of(value, st.text(max_size=4))),
        st.text(max_size=8),
    )
    drawn = forms.of(pattern)
    current_urls = st.one_of(st.none(), st.sampled_from(ODD_PAGES), st.text(max_size=12))
    choices, visitors = id_choices(world, pattern), sorted(world.visitors)
    random_calls = st.builds(
        Call,
        pattern=st.just(pattern),
        arguments=st.one_of(st.just(choices[0]), st.sampled_from(choices)),
        visitor=st.one_of(st.sampled_from(sweep.visitors(pattern)), st.sampled_from(visitors)),
        method=st.sampled_from(["POST", "POST", "GET"]),
        htmx=st.booleans(),
        data=st.dictionaries(name, values, max_size=6),
        current_url=current_urls,
    )

    @st.composite
    def changed_forms(draw: Any) -> Call:
        form = draw(st.sampled_from(drawn))
        data: dict[str, Any] = dict(form.call.data)
        for box, value in draw(st.lists(st.sampled_from(form.unticked))) if form.unticked else []:
            data[box] = [*data.get(box, []), value]  # ticked
        names = form.names()
        changed = draw(st.lists(st.sampled_from(names), max_size=3, unique=True)) if names else []
        for field_name in changed:
            if draw(st.booleans()):
                data[field_name] = draw(values)
            else:
                data.pop(field_name, None)
        data.update(draw(st.dictionaries(name, values, max_size=2)))
        return replace(
            form.call,
            arguments=draw(st.one_of(st.just(form.call.arguments), st.sampled_from(choices))),
            visitor=draw(st.one_of(st.just(form.call.visitor), st.sampled_from(visitors))),
            htmx=draw(st.booleans()),
            data=data,
            current_url=draw(current_urls),
        )

    calls = st.one_of(changed_forms(), random_calls) if drawn else random_calls

    @given(call=calls)
    @settings(
        max_examples=EXAMPLES_PER_PATTERN,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def call_page(call: Call) -> None:
        perform(world, call)

    call_page()


def test_every_page_as_every_visitor_with_odd_ids_and_odd_forms_is_never_a_server_error():
    world = _world()
    patterns = web_patterns()
    assert len(patterns) > 20
    sweep = Sweep(world, Forms(world, {p.name: p for p in patterns}))
    # 1. every page as every visitor, GET and POST, with and without htmx: the usual ids;
    # and as anonymous with htmx from odd pages
    for pattern in patterns:
        ids = usual_ids(world, pattern)
        for visitor, method, htmx in product(world.visitors, ("GET", "POST"), (False, True)):
            sweep.call(Call(pattern, ids, visitor, method, htmx, {}))
        for method, page in product(("GET", "POST"), ODD_PAGES):
            sweep.call(Call(pattern, ids, "anonymous", method, True, {}, page))
    assert sweep.forms.drawn, "no page drew a form"
    # 2. every kind of id (someone else's, missing, zero, huge), as a player and as staff,
    # with the page's form if it drew one
    for pattern in patterns:
        forms = sweep.forms.of(pattern)
        data = forms[0].call.data if forms else {}
        for ids, visitor in product(id_choices(world, pattern)[1:], ("a player", "staff")):
            sweep.call(Call(pattern, ids, visitor, "POST", htmx=True, data=data))
            if pattern.name in sweep.pages:
                sweep.call(Call(pattern, ids, visitor, "GET", htmx=False, data={}))
    # 3. every field of the pages' forms, missing or odd, the other fields as the page gave
    # them, sent by the visitor the page drew it for
    for pattern in patterns:
        for form in sweep.forms.kinds(pattern):
            sweep.call(form.call)
            htmx = cycle((True, False))
            for name in form.names():
                for odd in [None, *form.unticked_values(name), *sweep.odd_values()]:
                    data = {**form.call.data, name: odd}
                    if odd is None:
                        del data[name]
                    sweep.call(replace(form.call, htmx=next(htmx), data=data))
    # 4. Hypothesis: random visitors, ids, headers and forms
    for pattern in patterns:
        try:
            _fuzz(sweep, pattern)
        except Exception as error:  # collect every pattern's failure, then report them all
            sweep.failures.append(f"web:{pattern.name}: {str(error)[:3000]}")
    assert not sweep.failures, "\n\n".join(sweep.failures)
