"""`make run` (deploy/runall.py) on a busy port stops at once with a clear message, before it
starts a worker and beat or prints the URLs (issue 8, defect 16)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

RUNALL = Path(__file__).resolve().parent.parent / "deploy" / "runall.py"


def test_a_second_make_run_on_a_busy_port_exits_before_starting_anything() -> None:
    with socket.socket() as first_server:
        first_server.bind(("127.0.0.1", 0))
        first_server.listen()
        port = first_server.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if k != "BIND"}
        result = subprocess.run(
            [sys.executable, str(RUNALL)],
            env={**env, "PORT": str(port)},
            capture_output=True,
            text=True,
            timeout=60,
        )

    assert result.returncode == 2
    assert f"Port {port} on 127.0.0.1 is in use" in result.stderr
    assert f"PORT={port + 1} make run" in result.stderr
    assert result.stdout == ""  # no migration, no banner, no worker or beat output
