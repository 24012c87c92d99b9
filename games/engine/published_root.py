"""The card root a hand published at its start, which ``stud verify file`` checks against.

It is never the root written in the file being checked (a forger writes their own): the
player passes the root they saw (``--root``), or it is read from the table's log over the
API, the ``hand_start`` event every player at the table saw before the first card
(``GET {BASE_URL}/api/v1/tables/{table}/events/?after={start_seq - 1}&limit=1`` with the
player's token; ``/players/me/`` says who the token's owner is in the lineup). That event
carries the root, the seed's commitment, the client seeds and the lineup, never the server
seed.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Final

TIMEOUT_SECONDS: Final = 30
_ROOT_HEX: Final = re.compile(r"[0-9a-fA-F]{64}")


class RootUnavailable(ValueError):
    """No trusted card root could be had: says why and what to do."""


@dataclass(frozen=True)
class PublishedRoot:
    """A card root to check against (lowercase hex), where it came from (``--root`` or the
    address read), and when the table's log gave it: the hand's lineup and the token's
    owner's place in it (``you``; None: not dealt in)."""

    hex: str
    source: str
    lineup: list[Any] | None = None
    you: int | None = None


def card_root_hex(text: object) -> str:
    """``text`` as a card root: 64 hex digits, lowercased."""
    if not isinstance(text, str) or not _ROOT_HEX.fullmatch(text):
        raise RootUnavailable(f"a card root is 64 hex digits, not {text!r}")
    return text.lower()


def root_from_table_log(base_url: str, token: str, saved: dict[str, Any]) -> PublishedRoot:
    """The ``hand_start`` event of the saved answer's hand, read from its table's log: the
    answer's ``table``, ``hand`` and ``start_seq`` only say where to look, and the event
    found must be that hand's start."""
    table, hand, start_seq = (saved.get(key) for key in ("table", "hand", "start_seq"))
    if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in (table, hand)):
        raise RootUnavailable("the file names no table and hand to read the root of: pass --root")
    if not isinstance(start_seq, int) or isinstance(start_seq, bool) or start_seq < 1:
        raise RootUnavailable("the file has no start_seq (saved before it had one): pass --root")
    url = _api(base_url) + f"/tables/{table}/events/?after={start_seq - 1}&limit=1"
    page = _get_json(url, token)
    events = page.get("events") if isinstance(page, dict) else None
    event = events[0] if isinstance(events, list) and events else {}
    if not isinstance(event, dict) or (event.get("kind"), event.get("hand")) != (
        "hand_start",
        hand,
    ):
        raise RootUnavailable(f"the table's log has no start of hand {hand} at seq {start_seq}")
    data = event.get("data") or {}
    published = data.get("lineup")
    lineup: list[Any] = published if isinstance(published, list) else []
    me = _get_json(_api(base_url) + "/players/me/", token)
    player = me.get("id") if isinstance(me, dict) else None
    players = [e.get("player") if isinstance(e, dict) else None for e in lineup]
    you = players.index(player) if player in players else None
    return PublishedRoot(card_root_hex(data.get("card_root")), url, lineup, you)


def _api(base_url: str) -> str:
    """The API's root under ``BASE_URL`` (the site's address, or its ``/api/v1``)."""
    base = base_url.rstrip("/")
    if urllib.parse.urlsplit(base).scheme not in ("http", "https"):
        raise RootUnavailable(f"BASE_URL must be an http(s) address, not {base_url!r}")
    return base if base.endswith("/api/v1") else base + "/api/v1"


def _get_json(url: str, token: str) -> Any:
    request = urllib.request.Request(
        url, headers={"Authorization": f"Token {token}", "Accept": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        body = error.read(500).decode("utf-8", "replace")
        raise RootUnavailable(f"{url} answered {error.code}: {body}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise RootUnavailable(f"could not read the root from {url}: {error}") from None
