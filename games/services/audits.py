"""Staff audits of finished hands: every access to a hand's full record is logged."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from games.models import Hand, HandAudit


def hand_audit_record(*, hand: Hand, user: AbstractBaseUser, format: str) -> HandAudit:
    """Log that ``user`` saw ``hand`` in full (``format``: json or phh)."""
    return HandAudit.objects.create(hand=hand, user=user, format=format)
