"""The deploy drill: the service's processes started exactly as deploy/compose.yaml defines
them, and a tournament played through them (no container engine here: each service is a
process of this machine).

Each service built from deploy/Dockerfile (web, the default worker, the table workers, beat)
runs its compose `command` with its compose `environment` over the Dockerfile's `ENV`, from
the project folder (the image's WORKDIR). Only where they point is rewritten: the database
and Redis hosts become the test's servers (with the test database and Redis database, and
their credentials), the web binds 127.0.0.1 on a free port instead of 0.0.0.0:8000, and
STUD_VAR_DIR is a temporary folder. No test setting reaches them: they run with the queue
names of production. The operator's part is done as `docker compose exec web ...` would:
`run_tournament --workers 0` (the tournament through the running workers) and
`ledger_check`, in the web's environment.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import yaml
from django.conf import settings
from django.db import connection

from tests.e2e.live import free_port
from tests.e2e.workers import PROJECT_DIR, OutputProcess

pytestmark = [pytest.mark.postgres, pytest.mark.e2e]

DEPLOY = PROJECT_DIR / "deploy"
READY_SECONDS = 90
TOURNAMENT_SECONDS = 150
OPERATOR = {"SECRET_KEY": "drill-" + "s" * 50, "POSTGRES_PASSWORD": "unused-here"}
"""What the operator exports before `docker compose up` (deploy/README.md)."""

VARIABLE = re.compile(r"\$\{(?P<name>\w+)(?:(?P<kind>:-|:\?)(?P<text>[^}]*))?\}")


def interpolated(value: str, exported: dict[str, str]) -> str:
    """Compose's ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?message}``."""

    def one(match: re.Match[str]) -> str:
        name, kind, text = match["name"], match["kind"], match["text"]
        if exported.get(name):
            return exported[name]
        if kind == ":?":
            raise AssertionError(f"compose refuses to start: {text}")
        return text or ""

    return VARIABLE.sub(one, value)


def image_environment() -> dict[str, str]:
    """The ``ENV`` of deploy/Dockerfile."""
    text = (DEPLOY / "Dockerfile").read_text().replace("\\\n", " ")
    found: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            found |= dict(word.split("=", 1) for word in shlex.split(line[4:]))
    return found


def pointed_here(environment: dict[str, str], var_dir: Path, port: int) -> dict[str, str]:
    """The compose service's environment with its servers rewritten to this machine's."""
    test_db = connection.settings_dict
    database = urlsplit(environment["DATABASE_URL"])
    credentials = test_db["USER"] + (f":{test_db['PASSWORD']}" if test_db["PASSWORD"] else "")
    netloc = f"{credentials}@{test_db['HOST'] or '127.0.0.1'}:{test_db['PORT'] or 5432}"
    rewritten = {
        "DATABASE_URL": urlunsplit(database._replace(netloc=netloc, path=f"/{test_db['NAME']}")),
        "REDIS_URL": settings.REDIS_URL,
        "STUD_VAR_DIR": str(var_dir),
        "BIND": f"127.0.0.1:{port}",
    }
    assert environment["BIND"] == "0.0.0.0:8000" and rewritten["REDIS_URL"]
    return environment | rewritten


def app_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services built from deploy/Dockerfile (PostgreSQL and Redis are this machine's)."""
    return {
        name: service
        for name, service in compose["services"].items()
        if service.get("build", {}).get("dockerfile") == "deploy/Dockerfile"
    }


@pytest.fixture
def services(transactional_db: None, tmp_path: Path) -> Iterator[dict[str, OutputProcess]]:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    port = free_port()
    started: dict[str, OutputProcess] = {}
    exported = {**OPERATOR, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    try:
        for name, service in app_services(compose).items():
            declared = {
                key: interpolated(str(value), exported)
                for key, value in service["environment"].items()
            }
            environment = pointed_here(image_environment() | declared, tmp_path / name, port)
            environment |= {"PATH": exported["PATH"], "HOME": str(tmp_path)}
            started[name] = OutputProcess(name, service["command"], environment)
        yield started
    finally:
        for service in started.values():
            service.stop(timeout=20)
        if "web" in started:  # production's queue names: leave none of their messages behind
            tables = int(started["web"].environment["TABLE_QUEUES"])
            queues = ["stud", *(f"stud-table-{k}" for k in range(tables))]
            purge = ["celery", "-A", "config", "purge", "-f", "-Q", ",".join(queues)]
            subprocess.run(
                purge, cwd=PROJECT_DIR, env=started["web"].environment, capture_output=True
            )


def answer(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def exec_in(service: OutputProcess, *arguments: str) -> subprocess.CompletedProcess[str]:
    """`docker compose exec <service> python manage.py ...`: in the service's environment."""
    return subprocess.run(
        ["python", "manage.py", *arguments],
        cwd=PROJECT_DIR,
        env=service.environment,
        capture_output=True,
        text=True,
        timeout=TOURNAMENT_SECONDS + 30,
        check=False,
    )


def wait_healthy(services: dict[str, OutputProcess]) -> dict[str, Any]:
    """Until the web answers /healthz with "ok": it migrated and serves, and the workers'
    heartbeat (a task beat sends) came through the broker."""
    port = services["web"].environment["BIND"].rsplit(":", 1)[1]
    deadline = time.monotonic() + READY_SECONDS
    body: dict[str, Any] = {}
    while True:
        for service in services.values():
            assert service.process.poll() is None, f"{service.name} stopped:\n{service.log()}"
        try:
            status, body = answer(f"http://127.0.0.1:{port}/healthz")
            if status == 200 and body["status"] == "ok":
                return body
        except OSError:  # not listening yet (migrating), or busy starting
            body = {}
        assert time.monotonic() < deadline, f"/healthz not ok in {READY_SECONDS} s: {body}"
        time.sleep(1)


def test_the_services_of_compose_play_a_tournament_to_the_end(
    services: dict[str, OutputProcess],
) -> None:
    commands = [" ".join(service.process.args) for service in services.values()]  # type: ignore[arg-type]
    assert sum(" beat " in f" {command} " for command in commands) == 1, "beat runs once"
    queues = int(services["web"].environment["TABLE_QUEUES"])
    table_workers = [services[f"table-worker-{k}"] for k in range(queues)]
    assert queues >= 2 and len(services) == queues + 3  # web, worker, beat

    health = wait_healthy(services)
    played = exec_in(
        services["web"],
        *("run_tournament", "--workers", "0", "--players", "6", "--table-size", "3"),
        *("--level-seconds", "2", "--timeout", str(TOURNAMENT_SECONDS)),
    )
    assert played.returncode == 0, played.stdout + played.stderr
    checked = exec_in(services["web"], "ledger_check")
    assert checked.returncode == 0, checked.stdout + checked.stderr

    for worker in table_workers:  # each table queue's one process played its tables' tasks
        assert re.search(r"Task games\.tasks\.\w+\[[^]]+\] received", worker.log()), worker.name
    lines = played.stdout.splitlines()
    assert any("audit of the tournament's log: passed" in line for line in lines[-3:]), lines[-3:]
    assert lines[-1].startswith("ledger_check: balanced"), lines[-1]
    print(f"\nservices: {', '.join(services)} (TABLE_QUEUES={queues}); /healthz: {health}")
    print(lines[0], lines[-1], checked.stdout.strip(), sep="\n")
