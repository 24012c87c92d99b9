"""What the benchmarks on the real stack share: the PostgreSQL and Redis they need, a scratch
database of their own, the service's processes (Celery workers, beat, gunicorn) and a
description of the machine.

``bench.tables``, ``bench.load`` and ``bench.tournament`` run on PostgreSQL and Redis given by
DATABASE_URL and REDIS_URL; each creates and drops its own database on that server
(``scratch_database``) and purges the Celery queue of the Redis database given, so REDIS_URL
should name a scratch database (e.g. redis://.../14). ``running_stack`` starts the service
the way deploy/ runs it and stops every process it started on the way out.
"""

from __future__ import annotations

import os
import platform
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

PROJECT_DIR = Path(__file__).resolve().parent.parent
# what a benchmark's children and the Django it sets up in its own process read
ENVIRONMENT_KEYS = ("DATABASE_URL", "SECRET_KEY", "DJANGO_SETTINGS_MODULE")
READY_TIMEOUT_SECONDS = 60
STOP_TIMEOUT_SECONDS = 15


def missing_services(bench: str) -> str | None:
    """Why ``bench`` (e.g. "bench.tables") cannot run here, or None when PostgreSQL and
    Redis are configured."""
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")):
        return (
            f"{bench} needs PostgreSQL and Redis: set "
            "DATABASE_URL=postgres://USER@HOST:PORT/DB (any database on the server; the bench "
            "creates its own) and "
            "REDIS_URL=redis://HOST:6379/N (a scratch database: its Celery queue is purged)."
        )
    if not os.environ.get("REDIS_URL", "").startswith("redis://"):
        return f"{bench} needs Redis: set REDIS_URL=redis://HOST:6379/N (a scratch database)."
    return None


def with_database(url: str, name: str) -> str:
    """``url`` with its database name replaced by ``name``."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def recreate_database(url: str, name: str, *, drop_only: bool = False) -> None:
    """Drop ``name`` on the server of ``url`` (and create it afresh unless ``drop_only``)."""
    import psycopg

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            admin.execute(f'CREATE DATABASE "{name}"')


@contextmanager
def scratch_database(server_url: str, name: str) -> Iterator[dict[str, str]]:
    """Create database ``name`` afresh on the server of ``server_url``, migrate it and point
    this process at it (DATABASE_URL, SECRET_KEY, DJANGO_SETTINGS_MODULE in ``os.environ``,
    before Django is set up); drop it on the way out. Yields the environment for children."""
    env = {
        **os.environ,
        "DATABASE_URL": with_database(server_url, name),
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(32),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("STUD_DB_NAME", None)  # it would override the database named in DATABASE_URL
    os.environ.pop("STUD_DB_NAME", None)
    recreate_database(server_url, name)
    os.environ.update({key: env[key] for key in ENVIRONMENT_KEYS})
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=PROJECT_DIR,
            env=env,
            check=True,
        )
        yield env
    finally:
        _close_django_connections()
        recreate_database(server_url, name, drop_only=True)


def _close_django_connections() -> None:
    """Close this process's connections (if Django was set up) before the database goes."""
    if "django.db" in sys.modules:
        from django.db import connections

        connections.close_all()


def purge_queue() -> int:
    """Drop every message waiting in the Celery queues, the tables' ones too (Django must be
    set up); returns how many. Messages of an earlier run would act on tables that are gone."""
    from django.conf import settings

    from config.celery import app
    from games.services.schedule import table_queue

    purged = int(app.control.purge() or 0)
    with app.connection_for_write() as connection:
        for k in range(settings.TABLE_QUEUES):
            purged += int(connection.default_channel.queue_purge(table_queue(k)) or 0)
    return purged


def machine() -> dict[str, Any]:
    """The machine the figures were measured on (the load average tells of other work)."""
    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }


# ----------------------------------------------------------------------------- processes


class Process:
    """A child in its own process group, its output in a log file; stopped as a group."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], logs: Path):
        self.name = name
        self.log_path = logs / f"{name}.log"
        self._log = self.log_path.open("w")
        self.popen = subprocess.Popen(
            command,
            cwd=PROJECT_DIR,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, ready: Callable[[], bool], what: str) -> None:
        """Poll ``ready()`` until true; stop with this process's log if it dies or times out."""
        deadline = time.monotonic() + READY_TIMEOUT_SECONDS
        while not ready():
            if self.popen.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{self.name} did not {what}:\n{self.output()[-3000:]}")
            time.sleep(0.2)

    def stop(self) -> None:
        """SIGTERM the group (warm shutdown), SIGKILL it if that takes too long."""
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=STOP_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait()
        self._log.close()


@contextmanager
def processes() -> Iterator[list[Process]]:
    """A list to start processes into; every one of them is stopped on the way out."""
    started: list[Process] = []
    try:
        yield started
    finally:
        for process in reversed(started):
            process.stop()


def start_worker(n: int, env: dict[str, str], logs: Path, queue: str | None = None) -> Process:
    """Celery worker number ``n``: one process (``--pool solo``: it runs the tasks itself),
    named bench<n>, on ``queue`` (a table queue) or the default queue."""
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo"]
    command += ["-n", f"bench{n}@%h", "--loglevel=INFO", "--without-gossip", "--without-mingle"]
    command += ["--queues", queue] if queue else []
    return Process(f"worker{n}", command, env, logs)


def start_beat(env: dict[str, str], logs: Path) -> Process:
    """Celery beat: worker heartbeats for /healthz, the table sweep, the clocks."""
    command = [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO"]
    return Process("beat", [*command, "-s", str(logs / "celerybeat-schedule")], env, logs)


def start_web(
    port: int,
    env: dict[str, str],
    logs: Path,
    *,
    workers: int = 2,
    threads: int = 1,
    keep_alive: float | None = None,
) -> Process:
    """gunicorn serving the API on 127.0.0.1:``port``: ``workers`` processes, sync ones or,
    with ``threads`` above 1, gthread ones with that many threads each, keeping an idle
    connection open for ``keep_alive`` seconds (gunicorn's default, 2 s, when None)."""
    command = [sys.executable, "-m", "gunicorn", "config.wsgi:application"]
    command += ["--bind", f"127.0.0.1:{port}", "--workers", str(workers)]
    if threads > 1:
        command += ["--worker-class", "gthread", "--threads", str(threads)]
    if keep_alive is not None:
        command += ["--keep-alive", f"{keep_alive:g}"]
    return Process("web", [*command, "--log-level", "warning"], env, logs)


def answers(url: str) -> bool:
    """True once the server answers at all (healthz may be 503 until a worker's heartbeat)."""
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


def wait_until_serving(workers: list[Process], web: Process, base: str) -> None:
    """Until every worker is ready and the web answers on ``base``/healthz."""
    for worker in workers:
        worker.wait_for(lambda w=worker: " ready." in w.output(), "become ready")
    web.wait_for(lambda: answers(f"{base}/healthz"), "answer on /healthz")


@contextmanager
def running_stack(
    env: dict[str, str],
    logs: Path,
    *,
    port: int,
    workers: int = 2,
    queues: Sequence[str | None] = (),
    beat: bool = False,
    web_workers: int = 2,
    web_threads: int = 1,
    keep_alive: float | None = None,
) -> Iterator[list[Process]]:
    """``workers`` Celery workers (worker ``n`` on ``queues[n]`` if given), beat if asked, and
    gunicorn on ``port`` (``start_web``), started and serving; yields them (web last) and stops
    them all on the way out."""
    with processes() as started:
        started.extend(
            start_worker(n + 1, env, logs, queues[n] if queues else None) for n in range(workers)
        )
        if beat:
            started.append(start_beat(env, logs))
        web = start_web(
            port, env, logs, workers=web_workers, threads=web_threads, keep_alive=keep_alive
        )
        started.append(web)
        wait_until_serving(started[:workers], web, f"http://127.0.0.1:{port}")
        yield started
