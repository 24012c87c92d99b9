"""The whole service on the test database, for tests that use it as a client would: the API
under gunicorn on a free port, Celery workers and Celery beat, all real processes.

They share the test process's environment (so its test run id: the same Celery queue and
cache prefix) and are pointed at the test database with ``STUD_DB_NAME``, as the workers of
``tests/e2e/workers.py`` are.
"""

from __future__ import annotations

import socket
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.e2e.workers import OutputProcess, WorkerPool, on_test_database

READY_SECONDS = 60


def free_port() -> int:
    """A TCP port nobody listens on now (the kernel's choice)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LiveService:
    """gunicorn (2 workers) and Celery beat; Celery workers come from a ``WorkerPool``."""

    def __init__(self, workers: WorkerPool, *, worker_count: int = 2) -> None:
        self.workers = workers
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._logs = tempfile.TemporaryDirectory(prefix="stud-live-")
        logs = Path(self._logs.name)
        web = [sys.executable, "-m", "gunicorn", "config.wsgi:application"]
        web += ["--bind", f"127.0.0.1:{self.port}", "--workers", "2", "--threads", "2"]
        self.web = OutputProcess("web", [*web, "--log-level", "warning"], on_test_database())
        beat = [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=WARNING"]
        schedule = str(logs / "celerybeat-schedule")
        self.beat = OutputProcess("beat", [*beat, "-s", schedule], on_test_database())
        for _ in range(worker_count):
            workers.start()
        self._wait_for_web()

    def _wait_for_web(self) -> None:
        deadline = time.monotonic() + READY_SECONDS
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/api/v1/", timeout=5):
                    return
            except urllib.error.HTTPError:
                return  # it answers (401 without a token): up
            except OSError:
                if self.web.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    pytest.fail(f"the API server did not start:\n{self.web.log()[-3000:]}")
                time.sleep(0.3)

    def logs(self) -> str:
        """The end of every process's output, for a failure message."""
        parts = [f"--- {p.name}\n{p.log()[-3000:]}" for p in (self.web, self.beat)]
        parts += [f"--- {w.name}\n{w.log()[-3000:]}" for w in self.workers.workers]
        return "\n".join(parts)

    def stop(self) -> None:
        self.web.stop()
        self.beat.stop()
        self.workers.stop_all()
        self._logs.cleanup()
