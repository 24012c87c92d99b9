"""Real Celery worker processes for end-to-end tests (used through tests/e2e/conftest.py)."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

PROJECT_DIR = Path(__file__).resolve().parents[2]
READY_TIMEOUT_SECONDS = 60
STOP_TIMEOUT_SECONDS = 15


class OutputProcess:
    """A subprocess of the service in its own process group, run from the project folder,
    its output kept (workers, gunicorn, beat, the compose drill's services)."""

    def __init__(self, name: str, command: list[str], environment: dict[str, str]) -> None:
        self.name = name
        self.environment = environment
        self.output: list[str] = []
        self.process = subprocess.Popen(
            command,
            cwd=PROJECT_DIR,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._collect_output, daemon=True).start()

    def _collect_output(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            self.heard(line)

    def heard(self, line: str) -> None:
        """Called with each line the process prints (after it is kept)."""

    def log(self) -> str:
        """Everything the process printed so far."""
        return "".join(self.output)

    def kill(self) -> None:
        """SIGKILL the process and its children at once: a crash, no clean shutdown."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self, timeout: float = STOP_TIMEOUT_SECONDS) -> None:
        """SIGTERM (a warm shutdown), then SIGKILL if it takes longer than ``timeout``."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()


def on_test_database() -> dict[str, str]:
    """This process's environment, pointed at the test database."""
    return {**os.environ, "STUD_DB_NAME": str(connection.settings_dict["NAME"])}


class WorkerProcess(OutputProcess):
    """One `celery worker` subprocess on the test database."""

    def __init__(self, *extra_args: str) -> None:
        name = f"e2e-{uuid.uuid4().hex[:8]}@{socket.gethostname()}"
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO"]
        command += ["-n", name, "--without-gossip", "--without-mingle", "--without-heartbeat"]
        command += list(extra_args) or ["--pool=solo"]
        self._ready = threading.Event()
        super().__init__(name, command, on_test_database())

    def heard(self, line: str) -> None:
        if " ready." in line:
            self._ready.set()

    def wait_ready(self, timeout: float = READY_TIMEOUT_SECONDS) -> None:
        """Block until the worker consumes from the broker; fail with its output if it can't."""
        deadline = time.monotonic() + timeout
        while not self._ready.wait(0.1):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"Celery worker did not start:\n{self.log()}")


class WorkerPool:
    """Workers started for one test; `restart_after_crash` supports crash-recovery tests."""

    def __init__(self) -> None:
        self.workers: list[WorkerProcess] = []

    def start(self, *extra_args: str) -> WorkerProcess:
        """Start another worker (default `--pool=solo`) and wait until it is ready."""
        worker = WorkerProcess(*extra_args)
        self.workers.append(worker)
        worker.wait_ready()
        return worker

    def restart_after_crash(self, worker: WorkerProcess, *extra_args: str) -> WorkerProcess:
        """SIGKILL `worker` (as if its host died) and start a fresh one in its place."""
        worker.kill()
        return self.start(*extra_args)

    def stop_all(self) -> None:
        for worker in self.workers:
            worker.stop()
