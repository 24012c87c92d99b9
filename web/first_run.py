"""The first staff account, made from a page: only while no staff account exists, and only
with the one-time token that ``manage.py first_run`` (run by ``make run``) writes to a file
readable by the machine's owner alone and prints in the terminal. Whoever can read the
terminal or the file owns the machine already; anyone else reaching the page gets a 404.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Player
from games.services.players import player_create


def _token_path() -> Path:
    return Path(settings.VAR_DIR) / "first_run_token"


def setup_open() -> bool:
    """True while no staff account exists: the only time the setup page works."""
    return not get_user_model().objects.filter(is_staff=True).exists()


def token_issue() -> str | None:
    """A fresh one-time token (the old one no longer works), or None once staff exists."""
    path = _token_path()
    if not setup_open():
        path.unlink(missing_ok=True)
        return None
    token = secrets.token_urlsafe(24)
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as token_file:
        token_file.write(token)
    return token


def token_valid(token: str) -> bool:
    """True for the token last issued, while setup is open."""
    try:
        issued = _token_path().read_text().strip()
    except FileNotFoundError:
        return False
    return bool(issued) and hmac.compare_digest(issued, token) and setup_open()


def first_staff_create(*, username: str, password: str, display_name: str) -> Player:
    """The first staff account (a superuser, with its player profile); the token is spent.
    Refuses (raises ``PermissionError``) once staff exists, so two tabs cannot make two."""
    with transaction.atomic():
        if not setup_open():
            raise PermissionError("a staff account exists already: sign in with it")
        player = player_create(username=username, password=password, display_name=display_name)
        player.user.is_staff = True
        player.user.is_superuser = True
        player.user.save(update_fields=["is_staff", "is_superuser"])
    _token_path().unlink(missing_ok=True)
    return player
