"""Multiprocess mode (PROMETHEUS_MULTIPROC_DIR): what separate processes count (gunicorn's
workers, Celery's pool processes, containers sharing the folder) is summed by /metrics."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

ROOT = Path(__file__).resolve().parents[2]

COUNT_TWO_HANDS = """
import django
django.setup()
from observability import metrics
metrics.hand_dealt("razz")
metrics.hand_dealt("razz")
"""


def test_hands_counted_in_two_processes_are_summed(tmp_path):
    folder = tmp_path / "metrics"
    environment = {
        **os.environ,
        "PROMETHEUS_MULTIPROC_DIR": str(folder),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    for _ in range(2):
        subprocess.run(
            [sys.executable, "-c", COUNT_TWO_HANDS], cwd=ROOT, env=environment, check=True
        )

    files = sorted(path.name for path in folder.glob("counter_*.db"))
    assert len(files) == 2  # one a process, named by host and process id
    assert all(
        name.startswith(f"counter_{os.uname().nodename.replace('_', '-')}-") for name in files
    )
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(folder))
    text = generate_latest(registry).decode()
    assert 'stud_hands_dealt_total{variant="razz"} 4.0' in text
