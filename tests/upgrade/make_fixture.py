"""Make tests/upgrade/release.json.gz: a populated database of an earlier release's schema.

    .venv/bin/python -m tests.upgrade.make_fixture [COMMIT]

Runs the code of ``COMMIT`` (default: ``RELEASE``, the commit before the event log's and the
hand snapshot's migrations; ``git archive`` into a temporary folder, as bench versus does) on
an embedded SQLite database of its own: it migrates, plays a bot tournament to the end
through a worker (``run_tournament``), plays raked ring hands and leaves one hand running,
then dumps every row (``dumpdata``) with the name of each app's last migration at that
commit. tests/upgrade/test_upgrade.py loads it into a database migrated to those names and
migrates it to today's schema. Made once; run again only to move the release forward.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

from bench.versus import extracted

PROJECT_DIR = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).with_name("release.json.gz")
RELEASE = "8fb44672cf37794f4897d20abe1c54f157b39ef9"
"""The pinned earlier release (there are no tags): 90 commits before the upgrade test, the
last commit before games' migrations 0006-0010 (the event log's keys and primary key, the
tables' chip unit, the snapshot's compression)."""

EXCLUDED = ("contenttypes", "auth.permission", "sessions", "admin.logentry")
"""Rows `migrate` makes itself (or that no test reads)."""

RING_HANDS = """
from django.contrib.auth import get_user_model
from games.models import Hand, HandStatus, Player
from games.services import hands
from games.services.seating import seat_sit
from games.services.tables import table_create
from money.ledger import Ref, Transfer, cash_desk, player_account, post
from money.models import Reason

def player(name, bot=""):
    user = get_user_model().objects.create_user(username=name, password="upgrade-pw-1")
    made = Player.objects.create(user=user, display_name=name.title(), bot=bot)
    post([Transfer(cash_desk(None), player_account(made.id, None), 5000)],
         reason=Reason.DEPOSIT, ref=Ref("player", made.id))
    return made

def table(name, **rules):
    return table_create(name=name, variant="stud_hi", ante=1, bring_in=2, small_bet=5,
                        big_bet=10, buy_in_min=50, buy_in_max=1000, allow_bots=True,
                        pause_ms=0, action_seconds=3600, **rules)

raked = table("Raked ring", rake_basis_points=1000, rake_cap=50, rake_third_street=True)
for number, name in enumerate(("ring-bot-1", "ring-bot-2", "ring-bot-3"), start=1):
    seat_sit(table_id=raked.id, player=player(name, "rules"), seat_number=number,
             buy_in=300, by_staff=True)
for _ in range(40):
    hands.table_advance(raked.id)
    if Hand.objects.filter(table=raked, status=HandStatus.FINISHED).count() >= 8:
        break
waiting = table("Waiting on a player")
seat_sit(table_id=waiting.id, player=player("ring-human"), seat_number=1, buy_in=200)
seat_sit(table_id=waiting.id, player=player("ring-bot-4", "rules"), seat_number=2,
         buy_in=200, by_staff=True)
hands.table_advance(waiting.id)
assert Hand.objects.filter(table=waiting, status=HandStatus.RUNNING).exists()
"""

LEAVES = """
import json
from django.db.migrations.loader import MigrationLoader
print(json.dumps(dict(sorted(MigrationLoader(None).graph.leaf_nodes()))))
"""


def main() -> int:
    commit = sys.argv[1] if len(sys.argv) > 1 else RELEASE
    with extracted(PROJECT_DIR, commit) as code:
        environment = {
            key: value
            for key, value in os.environ.items()
            if key not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "STUD_DB_NAME")
            and not key.startswith(("PYTEST", "STUD_TEST"))
        }
        environment["STUD_VAR_DIR"] = str(code / "var")

        def manage(*arguments: str) -> str:
            print(f"[{commit[:7]}] manage.py {arguments[0]}", file=sys.stderr, flush=True)
            done = subprocess.run(
                [sys.executable, "manage.py", *arguments],
                cwd=code,
                env=environment,
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                raise SystemExit(f"manage.py {arguments[0]} failed:\n{done.stdout}{done.stderr}")
            return done.stdout

        manage("migrate", "--noinput")
        manage("run_tournament", "--players", "4", "--table-size", "4", "--workers", "1")
        manage("shell", "--command", RING_HANDS)
        # (the shell may say first what it imported: the answer is its last line)
        migrations = json.loads(manage("shell", "--command", LEAVES).splitlines()[-1])
        dumped = manage("dumpdata", *(f"--exclude={name}" for name in EXCLUDED))
    release = {"commit": commit, "migrations": migrations, "objects": json.loads(dumped)}
    with gzip.open(FIXTURE, "wt") as fixture:
        json.dump(release, fixture, separators=(",", ":"))
    print(f"{FIXTURE}: {len(release['objects'])} rows, {FIXTURE.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
