"""Playing through the API: a whole hand with two humans and a bot, events polling,
history (JSON and PHH), verify, and what each player may see."""

from __future__ import annotations

import pytest

from games import selectors
from games.engine.events import Award
from games.engine.fairness import CardProof, commitment, verify_card
from games.engine.phh import load_phh, replay_phh, stacks_after
from games.models import Hand, HandStatus, Seat, TableEvent
from games.services import hands
from tests.games.factories import make_player, make_table
from tests.games.test_api_support import Session, client_for, table_url

pytestmark = pytest.mark.django_db


def _seat_three(buy_in: int = 200):
    """alice (seat 1) and bob (seat 2) sit through the API; staff seats a calling-station bot
    in seat 3."""
    table = make_table()
    alice, bob = make_player("alice"), make_player("bob")
    staff = make_player("boss", staff=True)
    bot = make_player(bot="station")
    for player, seat in ((alice, 1), (bob, 2)):
        response = client_for(player).post(
            table_url(table, "sit"), {"seat": seat, "buy_in": buy_in}, format="json"
        )
        assert response.status_code == 200, response.json()
    response = client_for(staff).post(
        table_url(table, "sit"), {"seat": 3, "buy_in": buy_in, "player": bot.id}, format="json"
    )
    assert response.status_code == 200, response.json()
    return table, alice, bob, bot


def test_a_full_hand_with_two_humans_and_a_bot_through_the_api():
    table, alice, bob, _bot = _seat_three()
    session = Session(table, {"alice": client_for(alice), "bob": client_for(bob)})

    hand_id = session.play_hand()

    hand = Hand.objects.get(pk=hand_id)
    assert hand.status == HandStatus.FINISHED
    assert session.decisions >= 8  # both humans checked or called on five streets
    assert sum(Seat.objects.filter(table=table).values_list("stack", flat=True)) == 600
    detail = session.clients["alice"].get(f"/api/v1/hands/{hand_id}/").json()
    assert detail["status"] == "finished"
    assert detail["seed"] is None  # the table is still open (STUD_SEED_REVEAL=table_closed)
    assert detail["seed_reveal"] == "table_closed"
    assert detail["card_root"] == hand.card_root and len(hand.card_root) == 64
    assert detail["commitment"] == commitment(bytes(hand.seed))
    state = selectors.hand_state(hand)
    awards = [(e.player, e.amount) for e in state.log if isinstance(e, Award)]
    assert [(w["player"], w["amount"]) for w in detail["view"]["winners"]] == awards
    seats = Seat.objects.filter(table=table).order_by("number")
    assert [s.stack for s in seats[:3]] == [p.stack for p in state.players]


def test_the_table_view_shows_own_down_cards_legal_actions_and_the_deadline():
    table, alice, bob, _bot = _seat_three()
    assert hands.table_advance(table.id) == "waiting for a player"
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    state = selectors.hand_state(hand)
    actor = state.candidates[0]
    client = client_for(alice if actor == 0 else bob)

    body = client.get(table_url(table)).json()

    view = body["hand"]["view"]
    assert body["seq"] == table.__class__.objects.get(pk=table.id).seq
    assert body["hand"]["deadline"] is not None and body["hand"]["seed"] is None
    assert view["players"][actor]["down"] == [repr(c) for c in state.players[actor].down]
    assert view["legal_actions"] == [o.to_dict() for o in state.legal_actions()]
    assert view["legal_actions"], "the human to act is offered their options"
    others = [i for i in range(3) if i != actor]
    assert all(view["players"][i]["down"] == ["??", "??"] for i in others)
    assert [len(p["up"]) for p in view["players"]] == [1, 1, 1]
    assert [s["stack"] for s in body["seats"][:3]] == [p.stack for p in state.players]


def test_act_answers_the_new_seq_and_the_option_taken():
    table, alice, bob, _bot = _seat_three()
    hands.table_advance(table.id)
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    actor = selectors.hand_state(hand).candidates[0]
    client = client_for(alice if actor == 0 else bob)
    detail = client.get(table_url(table)).json()
    option = detail["hand"]["view"]["legal_actions"][-1]
    body = {"action": option["action"], "amount": option["to"], "seq": detail["seq"]}

    response = client.post(table_url(table, "act"), body, format="json")

    assert response.status_code == 200
    table.refresh_from_db()
    assert response.json() == {"seq": table.seq, **option}
    assert table.seq == detail["seq"] + 1


def test_events_after_n_returns_only_newer_events_and_hides_other_down_cards():
    table, alice, _bob, _bot = _seat_three()
    client = client_for(alice)
    before = client.get(table_url(table, "events")).json()
    assert [e["kind"] for e in before["events"]] == ["sit", "sit", "sit"]
    assert before["seq"] == 3

    hands.table_advance(table.id)
    body = client.get(table_url(table, "events"), {"after": 3}).json()

    events = body["events"]
    assert [e["seq"] for e in events] == list(range(4, body["seq"] + 1))
    assert events[0]["kind"] == "hand_start"
    deals = [e["data"] for e in events if e["kind"] == "deal"]
    assert len(deals) == 9
    own = [d["card"] for d in deals if d["player"] == 0 and not d["up"]]
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    state = selectors.hand_state(hand)
    assert own == [repr(c) for c in state.players[0].down]
    assert [d["card"] for d in deals if d["player"] != 0 and not d["up"]] == ["??"] * 4
    assert client.get(table_url(table, "events"), {"after": body["seq"]}).json()["events"] == []


def _finish_one_hand(choose=None):
    table, alice, bob, _bot = _seat_three()
    session = Session(table, {"alice": client_for(alice), "bob": client_for(bob)})
    if choose is not None:
        session.choose = choose
    hand_id = session.play_hand()
    return session, Hand.objects.get(pk=hand_id)


def test_history_json_hides_unshown_down_cards_and_shows_shown_ones():
    session, hand = _finish_one_hand()
    state = selectors.hand_state(hand)
    client = session.clients["alice"]

    body = client.get(f"/api/v1/hands/{hand.id}/history/").json()

    assert body["seed"] is None
    assert body["card_root"] == hand.card_root
    deals = [e for e in body["log"] if e["type"] == "deal" and not e["up"]]
    for event in deals:
        owner = event["player"]
        if owner == 0 or state.players[owner].shown:
            assert event["card"] != "??"
        else:
            assert event["card"] == "??"
    assert len(deals) == 9
    shown = [i for i, p in enumerate(state.players) if p.shown]
    assert shown, "a hand played to showdown by calling stations shows a hand"


def test_history_phh_is_a_phh_file_with_only_the_callers_and_shown_down_cards():
    def bob_mucks(name, options):
        actions = [o["action"] for o in options]
        if name == "bob" and "muck" in actions:
            return options[actions.index("muck")]
        return _calling(options)

    session, hand = _finish_one_hand(bob_mucks)
    state = selectors.hand_state(hand)

    response = session.clients["alice"].get(f"/api/v1/hands/{hand.id}/history/?format=phh")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="table-{hand.table_id}-hand-{hand.number}.phh"'
    )
    text = response.content.decode()
    assert text.startswith("variant = 'F7S'\n")
    for i, p in enumerate(state.players):
        for card in p.down:
            assert (repr(card) in text) == (p.shown or i == 0), (i, repr(card))
    assert "players = ['Alice', 'Bob'," in text
    assert f"finishing_stacks = {[p.stack for p in state.players]}" in text
    assert stacks_after(replay_phh(load_phh(text))) == [p.stack for p in state.players]


def _calling(options):
    for action in ("bring_in", "check", "call", "show"):
        for option in options:
            if option["action"] == action:
                return option
    return options[0]


def test_verify_proves_own_up_and_shown_cards_against_the_published_root():
    session, hand = _finish_one_hand()
    state = selectors.hand_state(hand)
    published = TableEvent.objects.get(hand=hand, kind="hand_start").data

    body = session.clients["bob"].get(f"/api/v1/hands/{hand.id}/verify/").json()

    assert published["card_root"] == body["card_root"] == hand.card_root
    assert published["client_seeds"] == body["client_seeds"] == ["", "", ""]
    assert body["ok"] is True and body["cards_ok"] is True
    assert body["seed"] is None and body["seed_check"] is None
    proven = {(c["player"], c["card"]) for c in body["cards"]}
    visible = {
        (i, repr(card))
        for i, p in enumerate(state.players)
        for card in [*p.up, *(p.down if i == 1 or p.shown else [])]
    }
    assert proven == visible
    for card in body["cards"]:
        proof = CardProof.from_dict(card)
        assert verify_card(published["card_root"], proof)
