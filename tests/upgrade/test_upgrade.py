"""Safe upgrades: a populated database of an earlier release migrates to today's schema with
its data intact (docs/operations.md, "Upgrades").

tests/upgrade/release.json.gz holds every row of a database that the pinned earlier release
(``make_fixture.RELEASE``) made and played on: a bot tournament to its end, raked ring hands
and a hand left running. The test migrates a new, empty database to that release's last
migrations, loads the rows through the models as they were at those migrations, runs
today's `migrate`, and checks the data: every row is still there, the ledger balances, every
finished hand replays to the result it recorded and the running hand carries on from its
log.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter, defaultdict
from typing import Any

import pytest
from django.apps import apps as today
from django.core.management import call_command
from django.core.management.color import no_style
from django.core.serializers import base, python
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import StateApps

from games import selectors
from games.engine.state import Phase
from games.models import Hand, HandStatus, Player
from games.services.hands import automatic_option, hand_act
from money.reconciliation import ledger_check
from tests.other_database import empty_database, on_database
from tests.upgrade.make_fixture import FIXTURE
from tourney.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


class HistoricalDeserializer(python.Deserializer):
    """Django's own deserializer, reading each row through the model as it was at the
    release's migrations (not as the code is today)."""

    def __init__(self, rows: list[dict[str, Any]], models: StateApps) -> None:
        super().__init__(rows)
        self.models = models

    def _get_model_from_node(self, model_identifier: str) -> Any:  # type: ignore[override]
        try:
            return self.models.get_model(model_identifier)
        except LookupError as missing:
            raise base.DeserializationError(f"no model {model_identifier}") from missing


def load_release(release: dict[str, Any]) -> None:
    """Migrate the (empty) database to the release's migrations and load its rows as they
    were (ids and timestamps too), as `loaddata` would have with that release's code."""
    targets = list(release["migrations"].items())
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    models = executor.loader.project_state(targets).apps
    rows = list(HistoricalDeserializer(release["objects"], models))
    by_model: dict[type[Any], list[Any]] = defaultdict(list)
    for row in rows:
        by_model[type(row.object)].append(row.object)
    with transaction.atomic(), connection.constraint_checks_disabled():
        for model, objects in by_model.items():
            for field in model._meta.concrete_fields:  # keep the rows' own timestamps
                field.auto_now = field.auto_now_add = False
            model.objects.bulk_create(objects, batch_size=500)
        for row in rows:
            for name, values in row.m2m_data.items():
                getattr(row.object, name).set(values)
    connection.check_constraints()
    # Rows came with their ids: each sequence goes on after the largest (PostgreSQL).
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), list(by_model)):
            cursor.execute(statement)


def test_the_earlier_release_migrates_to_today_with_its_data_intact() -> None:
    with gzip.open(FIXTURE, "rt") as fixture:
        release = json.load(fixture)
    rows = Counter(row["model"] for row in release["objects"])
    with empty_database("upgrade") as name, on_database(name):
        load_release(release)
        call_command("migrate", "--noinput", verbosity=0)

        for label, count in rows.items():
            assert today.get_model(label).objects.count() == count, label
        report = ledger_check()
        assert report.ok, report.problems
        assert Tournament.objects.filter(status="finished").count() == 1
        finished = Hand.objects.filter(status=HandStatus.FINISHED)
        assert finished.count() >= 10
        for hand in finished:
            replayed = selectors.hand_state_from_events(hand)
            assert replayed == selectors.hand_state(hand), f"hand {hand.id}"
            assert replayed.phase is Phase.OVER
        (running,) = Hand.objects.filter(status=HandStatus.RUNNING)
        state = selectors.hand_state_from_events(running)
        assert state == selectors.hand_state(running) and state.phase is not Phase.OVER
        assert state.candidates, "the hand waits on its player"
        # ... who plays on with today's code, from the log the earlier release wrote.
        option = automatic_option(state)
        player = Player.objects.get(pk=running.lineup[state.candidates[0]]["player"])
        hand_act(
            table_id=running.table_id,
            player=player,
            action=str(option.action),
            amount=option.to,
            seq=None,
        )
        running.refresh_from_db()
        played_on = selectors.hand_state_from_events(running)
        assert played_on == selectors.hand_state(running)
        assert len(played_on.log) > len(state.log)
        assert ledger_check().ok
