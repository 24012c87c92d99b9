"""Property-based fuzzing of the whole API against its own OpenAPI schema (schemathesis).

Every operation the schema documents is called with generated inputs, as staff and as a
player, in-process on the WSGI app: no response may be a 5xx, and every response must match
the schema (status documented, body shaped as documented). Bounded for CI by
``STUD_FUZZ_EXAMPLES`` examples per operation (default 8); raise it for a longer hunt.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import content_type_conformance, not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.games.factories import make_player, make_table

EXAMPLES = int(os.environ.get("STUD_FUZZ_EXAMPLES", "8"))
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


@pytest.fixture
def api_schema(db: Any) -> Iterator[Any]:
    # Like Django's test client: the test's transaction must survive each request's end.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def _token(*, staff: bool) -> str:
    """A staff account's or a player's token, with a table for their calls to find."""
    make_table()
    caller = make_player("fuzz-staff" if staff else "fuzz-player", staff=staff)
    token = Token.objects.get_or_create(user=caller.user)[0]
    _token_owners[token.key] = caller.user.pk
    return token.key


def _keep_token(key: str) -> None:
    """Give the caller back the token ``key`` if a call revoked or rotated it."""
    user_id = Token.objects.filter(key=key).values_list("user_id", flat=True).first()
    if user_id is None:
        user_id = _token_owners[key]
        Token.objects.filter(user_id=user_id).delete()
        Token.objects.create(key=key, user_id=user_id)


_token_owners: dict[str, int] = {}


def _fuzz(operation: Any, token: str) -> None:
    @given(case=operation.as_strategy())
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def call(case: Any) -> None:
        case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)
        _keep_token(token)  # the token revoke and rotate endpoints end it; later calls need it

    call()


@pytest.mark.parametrize("staff", [True, False], ids=["staff", "player"])
def test_no_server_error_and_every_response_matches_the_schema(
    api_schema: Any, staff: bool
) -> None:
    token = _token(staff=staff)
    failures: dict[str, str] = {}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) > 20
    for operation in operations:
        try:
            _fuzz(operation, token)
        except Exception as error:  # collect every operation's failure, then report them all
            failures[operation.label] = str(error)[:2000]
    assert not failures, "\n\n".join(f"{label}:\n{text}" for label, text in failures.items())
