"""The running service for browser tests: gunicorn serving the test database on a port of
its own, real Celery workers and Celery beat (ticks, sweeps), and Debian's Chromium driven
by Playwright (``playwright install`` cannot download browsers on our machines, so the
tests launch /usr/bin/chromium; .ci/run installs it).

Screenshots of each page go to ``SCREENSHOTS_DIR`` (default ``var/test/screenshots``; the
docs' come from ``SCREENSHOTS_DIR=docs/screenshots``).
"""

from __future__ import annotations

import os
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connections

from tests.conftest import running_in_ci
from tests.e2e.live import free_port
from tests.e2e.workers import PROJECT_DIR, OutputProcess, WorkerPool, on_test_database

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
START_TIMEOUT_SECONDS = 60


@pytest.fixture
def live_service(celery_workers: WorkerPool, tmp_path: Path) -> Iterator[str]:
    """The base URL of the service: gunicorn, two workers, beat; all stopped afterwards."""
    celery_workers.start()
    celery_workers.start()
    port = free_port()
    bin_dir = Path(sys.executable).parent
    web = OutputProcess(
        "web",
        [str(bin_dir / "gunicorn"), "--config", str(PROJECT_DIR / "deploy" / "gunicorn.conf.py")],
        {**on_test_database(), "PORT": str(port), "WEB_CONCURRENCY": "2", "WEB_THREADS": "4"},
    )
    beat = OutputProcess(
        "beat",
        [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
         "-s", str(tmp_path / "celerybeat-schedule")],
        on_test_database(),
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while True:
        try:
            with urllib.request.urlopen(f"{base}/accounts/login/", timeout=2) as answer:
                if answer.status == 200:
                    break
        except OSError:
            pass
        if web.process.poll() is not None or time.monotonic() > deadline:
            web.stop()
            beat.stop()
            pytest.fail("gunicorn did not start:\n" + "".join(web.output))
        time.sleep(0.2)
    yield base
    web.stop()
    beat.stop()
    if os.environ.get("WEB_TEST_LOGS"):  # for diagnosing a failure: the service's output
        for name, lines in [("beat", beat.output), ("web", web.output)] + [
            (f"worker {n}", w.output) for n, w in enumerate(celery_workers.workers)
        ]:
            print(f"\n===== {name}\n" + "".join(lines[-40:]))


@pytest.fixture
def browser() -> Iterator[object]:
    """Debian's Chromium, headless, through Playwright."""
    if not CHROMIUM.exists():
        if running_in_ci():
            pytest.fail("CI must install chromium (apt-get install -y chromium)")
        pytest.skip("needs Debian's chromium: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # ordinary synchronous ones (the pages are served by gunicorn in another process). They
    # open a connection of their own in Playwright's context: closed here, or the test
    # database could not be dropped at the end.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()
        connections.close_all()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def screenshots() -> Path:
    """Where the tests save a screenshot of each page."""
    folder = Path(os.environ.get("SCREENSHOTS_DIR", PROJECT_DIR / "var" / "test" / "screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
