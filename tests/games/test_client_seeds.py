"""Client seeds per hand (games.services.client_seeds, docs/fairness.md): a seated person
sends one for the next hand naming that hand's published commitment; bots send none and a
bot's seed never reaches a deck; a seed naming any other commitment is refused; the seeds
are secret until the hand starts, then logged in its hand_start event, from which anyone
recomputes the card root and every card dealt."""

from __future__ import annotations

import json

import pytest

from games.engine.fairness import commit_deck, commitment, deck_for_hand, verify_seed
from games.models import Hand, HandStatus, Table, TableEvent
from games.services import hands
from tests.games.factories import make_player, make_table, seat_players
from tests.games.test_api_support import Session, client_for, table_state, table_url

pytestmark = pytest.mark.django_db


def _send(client, table, commitment_hex, client_seed):
    return client.put(
        table_url(table, "client-seed"),
        {"commitment": commitment_hex, "client_seed": client_seed},
        format="json",
    )


def _next_commitment(client, table):
    return client.get(table_url(table)).json()["next_commitment"]


def _hand_start(hand):
    return TableEvent.objects.get(hand=hand, kind="hand_start")


def _people(*names):
    table = make_table()
    people = [make_player(name) for name in names]
    seat_players(table, people, 300)
    return table, people


def test_a_bot_sending_a_client_seed_is_refused_and_changes_nothing():
    table, (bot, _alice) = _people("bot", "alice")
    bot.bot = "station"
    bot.save(update_fields=["bot"])
    client = client_for(bot)
    before = table_state(table.id)

    refused = _send(client, table, _next_commitment(client, table), "house picks this")
    retired = client.put(
        "/api/v1/players/me/client-seed/", {"client_seed": "house picks this"}, format="json"
    )

    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "bot_client_seed"
    assert retired.status_code == 410
    assert retired.json()["error"]["code"] == "client_seed_per_hand"
    assert Table.objects.get(pk=table.id).next_client_seeds == {}
    assert table_state(table.id) == before


def test_a_bots_held_seed_never_reaches_the_deck():
    table = make_table()
    bot, alice = make_player("bot", bot="station"), make_player("alice")
    seat_players(table, [bot, alice], 300)
    announced = _next_commitment(client_for(alice), table)
    assert _send(client_for(alice), table, announced, "alice's").status_code == 200
    # However it got there (an old row, a direct write), a bot's seed is not read.
    Table.objects.filter(pk=table.id).update(
        next_client_seeds={str(bot.id): "grinded by the house", str(alice.id): "alice's"}
    )

    hands.table_advance(table.id)

    hand = Hand.objects.get(table=table)
    start = _hand_start(hand)
    assert [e["bot"] for e in start.data["lineup"]] == [True, False]
    assert start.data["client_seeds"] == hand.client_seeds == ["", "alice's"]
    seed = bytes(hand.seed)
    assert start.data["card_root"] == commit_deck(seed, ["", "alice's"]).root.hex()
    assert start.data["card_root"] != (
        commit_deck(seed, ["grinded by the house", "alice's"]).root.hex()
    )
    assert Table.objects.get(pk=table.id).next_client_seeds == {}


def test_a_client_seed_sent_after_the_commitment_is_used_logged_and_recomputes_the_deck():
    table, (alice, _bob, carol) = _people("alice", "bob", "carol")
    announced = _next_commitment(client_for(alice), table)

    sent = _send(client_for(alice), table, announced, "alice picks this")
    assert _send(client_for(carol), table, announced.upper(), "carol's 🂡").status_code == 200

    assert sent.status_code == 200
    assert sent.json() == {
        "commitment": announced,
        "client_seed": "alice picks this",
        "hand_number": 1,
    }
    hands.table_advance(table.id)
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    start = TableEvent.objects.filter(hand=hand).order_by("seq").first()
    assert start.kind == "hand_start"  # published before the first card
    logged = start.data["client_seeds"]
    assert logged == ["alice picks this", "", "carol's 🂡"]  # lineup order
    assert start.data["commitment"] == announced == commitment(bytes(hand.seed))
    # Anyone with the server seed (once public) recomputes the root and every card dealt
    # from the logged values alone.
    seed = bytes(hand.seed)
    assert verify_seed(seed, start.data["commitment"], logged, start.data["card_root"])
    dealt = [e.data["card"] for e in TableEvent.objects.filter(hand=hand, kind="deal")]
    assert dealt == [repr(c) for c in deck_for_hand(seed, logged)[::-1][: len(dealt)]]
    assert start.data["card_root"] != commit_deck(seed, ["", "", ""]).root.hex()
    assert Table.objects.get(pk=table.id).next_client_seeds == {}


def test_the_commitment_is_published_before_a_client_seed_for_its_hand_is_taken():
    table, people = _people("alice", "bob")
    alice, bob = (client_for(p) for p in people)
    assert _send(bob, table, _next_commitment(bob, table), "bob's, hand 1").status_code == 200
    Session(table, {"alice": alice, "bob": bob}).play_hand()
    first = Hand.objects.get(table=table)
    assert _hand_start(first).data["client_seeds"] == ["", "bob's, hand 1"]
    published = _hand_start(first)  # in the table's log, with the next hand's commitment
    announced = published.data["next_commitment"]
    assert _next_commitment(alice, table) == announced

    assert _send(alice, table, announced, "after the commitment").status_code == 200
    Session(table, {"alice": alice, "bob": bob}).play_hand()

    second = Hand.objects.get(table=table, number=2)
    start = _hand_start(second)
    assert start.data["commitment"] == announced == commitment(bytes(second.seed))
    assert published.seq < start.seq
    assert start.data["client_seeds"] == ["after the commitment", ""]  # bob's did not carry


def test_a_client_seed_naming_an_earlier_commitment_is_refused_and_not_used():
    table, people = _people("alice", "bob")
    alice = client_for(people[0])
    first_commitment = _next_commitment(alice, table)
    hands.table_advance(table.id)  # hand 1 starts: its commitment is no longer the next one
    before = table_state(table.id)

    late = _send(alice, table, first_commitment, "too late for hand 1")
    unknown = _send(alice, table, commitment(b"a seed never drawn"), "never announced")

    for refused in (late, unknown):
        assert refused.status_code == 409
        error = refused.json()["error"]
        assert error["code"] == "stale_commitment"
        assert error["detail"] == {"next_commitment": _next_commitment(alice, table)}
    assert Table.objects.get(pk=table.id).next_client_seeds == {}
    assert table_state(table.id) == before
    assert _hand_start(Hand.objects.get(table=table)).data["client_seeds"] == ["", ""]


def test_client_seeds_are_secret_until_their_hand_starts():
    table, people = _people("alice", "bob")
    alice, bob, dave = client_for(people[0]), client_for(people[1]), client_for(make_player())
    assert _send(alice, table, _next_commitment(alice, table), "secret-9f3a").status_code == 200

    for client in (bob, dave):
        seen = [
            client.get(table_url(table)),
            client.get(table_url(table, "events"), {"after": 0}),
            client.get("/api/v1/tables/"),
        ]
        assert all(r.status_code == 200 for r in seen)
        assert all("secret-9f3a" not in json.dumps(r.json()) for r in seen)


def test_one_client_seed_a_hand_and_only_from_a_seated_person():
    table, people = _people("alice", "bob")
    alice, outsider = client_for(people[0]), client_for(make_player("dave"))
    announced = _next_commitment(alice, table)
    assert _send(alice, table, announced, "first").status_code == 200

    again = _send(alice, table, announced, "first")
    other = _send(alice, table, announced, "second")
    not_seated = _send(outsider, table, announced, "dave's")

    assert again.status_code == 200
    assert (other.status_code, other.json()["error"]["code"]) == (409, "client_seed_sent")
    assert (not_seated.status_code, not_seated.json()["error"]["code"]) == (409, "not_seated")
    assert Table.objects.get(pk=table.id).next_client_seeds == {str(people[0].id): "first"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"client_seed": "x" * 65}, "client_seed"),
        ({"client_seed": ""}, "client_seed"),
        ({"client_seed": "tab\there"}, None),
        ({"commitment": "ab" * 31}, "commitment"),
        ({"commitment": "zz" * 32}, "commitment"),
        ({"extra": 1}, "extra"),
    ],
)
def test_a_bad_client_seed_is_refused_and_changes_nothing(body, field):
    table, people = _people("alice", "bob")
    alice = client_for(people[0])
    request = {"commitment": _next_commitment(alice, table), "client_seed": "fine", **body}
    before = table_state(table.id)

    response = alice.put(table_url(table, "client-seed"), request, format="json")

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] in ("invalid", "bad_client_seed")
    if field is not None:
        assert field in json.dumps(error["detail"])
    assert Table.objects.get(pk=table.id).next_client_seeds == {}
    assert table_state(table.id) == before
