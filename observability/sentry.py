"""Error reports to Sentry, when ``SENTRY_DSN`` is set and ``sentry-sdk`` is installed (the
optional extra: ``pip install '.[sentry]'``). Each report carries the log context (request
id, user, table, hand, tournament) as tags, and is scrubbed of cards, seeds, tokens and
passwords before it leaves the process (``observability.scrub``).
"""

from __future__ import annotations

from typing import Any

from observability import context
from observability.scrub import scrub


def before_send(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    """Tag the report with the log context, then scrub it (Sentry's ``before_send``)."""
    tags = dict(event.get("tags") or {})
    tags.update({name: str(value) for name, value in context.current().items()})
    cleaned = scrub({**event, "tags": {}})
    cleaned["tags"] = tags  # ids only: a request id, user, table, hand or tournament number
    return cleaned


def sentry_init(*, dsn: str, environment: str, release: str, **options: Any) -> None:
    """Start reporting errors of this process (web, worker or beat) to ``dsn``. Sentry's
    default sends no personal data (no cookies, no user's address or e-mail)."""
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release or None,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        before_send=before_send,
        include_local_variables=False,  # a frame's locals may hold a deck or a seed
        max_request_body_size="never",  # bodies carry passwords and client seeds
        **options,
    )
