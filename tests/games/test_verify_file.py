"""``stud verify file`` on real answers of the verify and audit endpoints: a genuine answer
passes against the root the hand published at its start (``--root``, or read from the table's
log over the API); forgeries fail (every proof removed, another seed with its own root,
relabelled proofs); with no root to trust it says what to do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from games.engine import cli
from games.engine.cards import FULL_DECK, Card
from games.engine.fairness import card_salt, leaf_hash, merkle_path, merkle_root
from games.models import Hand, TableEvent
from games.services import seating
from tests.games.factories import make_player
from tests.games.test_api_support import client_for, table_url
from tests.games.test_fair_dealing_api import _four_players_and_an_observer, _play_one_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """The players and a finished four-player hand of theirs (bob and erin fold, alice and
    carol go on)."""
    table, people = _four_players_and_an_observer()
    return people, _play_one_hand(table, people)


@pytest.fixture(autouse=True)
def no_api_in_the_environment(monkeypatch):
    monkeypatch.delenv("BASE_URL", raising=False)
    monkeypatch.delenv("STUD_TOKEN", raising=False)


def verify_answer(hand: Hand, player) -> dict[str, Any]:
    response = client_for(player).get(f"/api/v1/hands/{hand.id}/verify/")
    assert response.status_code == 200, response.json()
    return response.json()


def saved(tmp_path: Path, answer: dict[str, Any], name: str = "verify.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(answer), encoding="utf-8")
    return str(path)


def run(capsys, *args: str) -> tuple[int, dict[str, Any] | None, str]:
    status = cli.main(["verify", "file", *args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out else None), err


def published_root(hand: Hand) -> str:
    """The card root of the hand's hand_start event, as every player saw it."""
    return TableEvent.objects.get(hand=hand, kind="hand_start").data["card_root"]


def test_a_genuine_answer_passes_against_the_root_the_hand_started_with(played, tmp_path, capsys):
    people, hand = played
    answer = verify_answer(hand, people["bob"])
    me = answer["you"]

    status, result, _ = run(capsys, saved(tmp_path, answer), "--root", published_root(hand))

    assert status == 0
    assert result["you"] == me == 1 and result["root_from"] == "--root"
    assert result["cards_checked"] == len(answer["cards"]) > 0
    assert [c["card"] for c in result["your_cards"]] == [
        c["card"] for c in answer["cards"] if c["player"] == me
    ]
    assert {k: v for k, v in result.items() if k.endswith("_ok")} == {
        "file_root_ok": True,
        "cards_ok": True,
        "deal_order_ok": True,
        "required_ok": True,
    }


def test_a_staff_audit_answer_passes_too(played, tmp_path, capsys):
    _, hand = played
    staff = client_for(make_player("floor", staff=True))
    audit = staff.get(f"/api/v1/hands/{hand.id}/audit/").json()

    status, result, _ = run(capsys, saved(tmp_path, audit), "--root", published_root(hand))

    dealt = TableEvent.objects.filter(hand=hand, kind__in=("deal", "burn")).count()
    assert status == 0, result
    assert result["cards_checked"] == dealt
    assert result["commitment_ok"] and result["seed_root_ok"] and result["seed_cards_ok"]


def test_an_answer_with_every_proof_removed_fails(played, tmp_path, capsys):
    people, hand = played
    answer = verify_answer(hand, people["bob"])
    required = sorted(c["position"] for c in answer["cards"])

    status, result, _ = run(
        capsys, saved(tmp_path, {**answer, "cards": []}), "--root", published_root(hand)
    )

    assert status == 1
    assert result["required_ok"] is False
    assert result["missing_positions"] == required  # bob's own cards and every up card


def forged_from_another_seed(answer: dict[str, Any]) -> dict[str, Any]:
    """The same cards at the same positions, committed under another seed's salts: a file
    that agrees with itself in every way, under its own root."""
    other = bytes(range(1, 33))
    shown = {c["position"]: Card.parse(c["card"]) for c in answer["cards"]}
    rest = iter(c for c in FULL_DECK if c not in shown.values())
    order = [shown[p] if p in shown else next(rest) for p in range(52)]
    leaves = [leaf_hash(p, card, card_salt(other, p)) for p, card in enumerate(order)]
    cards = [
        {
            **c,
            "salt": card_salt(other, c["position"]).hex(),
            "path": [h.hex() for h in merkle_path(leaves, c["position"])],
        }
        for c in answer["cards"]
    ]
    return {**answer, "card_root": merkle_root(leaves).hex(), "cards": cards}


def test_an_answer_made_from_another_seed_with_its_own_root_fails_against_the_real_root(
    played, tmp_path, capsys
):
    people, hand = played
    forged = forged_from_another_seed(verify_answer(hand, people["bob"]))
    path = saved(tmp_path, forged)

    status, result, _ = run(capsys, path, "--root", published_root(hand))
    against_itself, _, _ = run(capsys, path, "--root", forged["card_root"])

    assert status == 1
    assert result["file_root_ok"] is False and result["cards_ok"] is False
    assert against_itself == 0  # the forgery is self-consistent: only the real root tells


def test_proofs_with_rewritten_player_or_face_labels_fail(played, tmp_path, capsys):
    people, hand = played
    answer = verify_answer(hand, people["bob"])
    own_down = next(c for c in answer["cards"] if c["player"] == answer["you"] and not c["up"])
    others_up = next(c for c in answer["cards"] if c["player"] != answer["you"] and c["up"])
    root = published_root(hand)

    def relabelled(proof: dict[str, Any], **labels: Any) -> dict[str, Any]:
        cards = [{**c, **labels} if c is proof else c for c in answer["cards"]]
        return {**answer, "cards": cards}

    forgeries = [
        relabelled(own_down, player=others_up["player"]),  # my card, said to be someone's
        relabelled(others_up, player=answer["you"]),  # someone's up card, said to be mine
        relabelled(own_down, up=True),
        relabelled(others_up, up=False),
        relabelled(others_up, kind="burn", player=None),
    ]
    for forged in forgeries:
        status, result, _ = run(capsys, saved(tmp_path, forged), "--root", root)

        assert status == 1, forged
        assert result["deal_order_ok"] is False
        assert result["misplaced"][0]["problem"] == "labels differ"


def test_a_log_whose_deals_are_relabelled_does_not_replay(played, tmp_path, capsys):
    people, hand = played
    answer = verify_answer(hand, people["bob"])
    first = next(i for i, e in enumerate(answer["log"]) if e["type"] == "deal")
    log = [dict(e) for e in answer["log"]]
    log[first]["player"] = (log[first]["player"] + 1) % 4

    status, result, _ = run(
        capsys, saved(tmp_path, {**answer, "log": log}), "--root", published_root(hand)
    )

    assert status == 1
    assert result["log_ok"] is False and "differs" in result["log_problem"]


def test_with_the_seat_given_a_file_that_is_not_the_seats_fails(played, tmp_path, capsys):
    people, hand = played
    answer = verify_answer(hand, people["bob"])  # bob sat in seat 2
    root = published_root(hand)

    assert run(capsys, saved(tmp_path, answer), "--root", root, "--seat", "2")[0] == 0
    not_seated = [e for e in answer["lineup"] if e["seat"] != 2]
    for forged in (
        {**answer, "you": None},
        {**answer, "you": 0},
        {**answer, "you": None, "lineup": not_seated},
    ):
        status, result, _ = run(capsys, saved(tmp_path, forged), "--root", root, "--seat", "2")

        assert status == 1 and result["you_ok"] is False


def test_with_no_root_to_trust_it_says_what_to_do_and_fails(played, tmp_path, capsys):
    people, hand = played
    path = saved(tmp_path, verify_answer(hand, people["bob"]))

    status, result, err = run(capsys, path)

    assert status == 2 and result is None
    assert "could not check" in err
    assert "--root" in err and "BASE_URL" in err and "STUD_TOKEN" in err


def test_an_answer_saved_without_the_hands_header_and_log_is_refused(played, tmp_path, capsys):
    people, hand = played
    answer = verify_answer(hand, people["bob"])
    old = {k: v for k, v in answer.items() if k not in ("header", "log")}

    status, _, err = run(capsys, saved(tmp_path, old), "--root", published_root(hand))

    assert status == 2
    assert "not a verify or audit answer with the hand's header and log" in err


# ----------------------------------------------------------------------------- the API's root


def test_the_table_log_gives_each_player_dealt_in_the_root_and_never_a_seed(played):
    people, hand = played
    table = hand.table
    seating.seat_leave(table_id=table.id, player=people["erin"])  # gone since: still allowed
    start = TableEvent.objects.get(hand=hand, kind="hand_start")
    table.refresh_from_db()
    secrets = [bytes(hand.seed).hex(), bytes(table.next_seed).hex()]

    for name in ("alice", "bob", "carol", "erin"):
        answer = verify_answer(hand, people[name])
        response = client_for(people[name]).get(
            table_url(table, "events"), {"after": answer["start_seq"] - 1, "limit": 1}
        )

        assert response.status_code == 200, name
        (event,) = response.json()["events"]
        assert (event["kind"], event["hand"], event["seq"]) == ("hand_start", hand.id, start.seq)
        assert event["data"]["card_root"] == hand.card_root
        assert "seed" not in event["data"]
        assert not [s for s in secrets if s in response.content.decode()], name


@pytest.mark.django_db(transaction=True)
def test_without_root_it_reads_the_root_from_the_tables_log_over_the_api(
    live_server, monkeypatch, tmp_path, capsys
):
    table, people = _four_players_and_an_observer()
    hand = _play_one_hand(table, people)
    answer = verify_answer(hand, people["bob"])
    token, _ = Token.objects.get_or_create(user=people["bob"].user)
    monkeypatch.setenv("BASE_URL", live_server.url)
    monkeypatch.setenv("STUD_TOKEN", token.key)

    status, result, err = run(capsys, saved(tmp_path, answer))
    forged_status, forged, _ = run(capsys, saved(tmp_path, forged_from_another_seed(answer)))
    observer_status, observer, _ = run(capsys, saved(tmp_path, {**answer, "you": None}))

    assert status == 0, err
    start = f"{live_server.url}/api/v1/tables/{table.id}/events/?after={answer['start_seq'] - 1}"
    assert result["root_from"] == start + "&limit=1"
    assert result["lineup_ok"] is True and result["you_ok"] is True
    assert forged_status == 1 and forged["file_root_ok"] is False
    # bob's own down cards are required of bob's file, even one that says it is an observer's
    assert observer_status == 1 and observer["you_ok"] is False


@pytest.mark.django_db(transaction=True)
def test_a_token_the_api_refuses_is_reported_and_fails(live_server, monkeypatch, tmp_path, capsys):
    table, people = _four_players_and_an_observer()
    hand = _play_one_hand(table, people)
    path = saved(tmp_path, verify_answer(hand, people["bob"]))
    monkeypatch.setenv("BASE_URL", live_server.url)
    monkeypatch.setenv("STUD_TOKEN", "not-a-token")

    status, result, err = run(capsys, path)

    assert status == 2 and result is None
    assert "answered 401" in err
