"""Run the API server, a Celery worker and Celery beat together in the foreground.

Used by `make run`: migrates first, prints the URLs that matter, prefixes each process's
output with its name, and stops all three on Ctrl-C or as soon as one of them exits.
"""

import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

PROJECT_DIR = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
STOP_GRACE_SECONDS = 10

COMMANDS = {
    "web": [str(BIN / "gunicorn"), "--config", str(PROJECT_DIR / "deploy" / "gunicorn.conf.py")],
    "worker": [
        *(str(BIN / "celery"), "-A", "config", "worker", "--loglevel=INFO"),
        *("--concurrency=2", "--without-gossip", "--without-mingle"),
    ],
    "beat": [str(BIN / "celery"), "-A", "config", "beat", "--loglevel=INFO"],
}


def bind_address(port: str) -> tuple[str, int]:
    """Where the API server will listen: ``BIND`` (host:port) or the loopback and ``PORT``."""
    host, _, number = os.environ.get("BIND", f"127.0.0.1:{port}").rpartition(":")
    return host.strip("[]") or "0.0.0.0", int(number)


def address_in_use(host: str, port: int) -> bool:
    """True if something already listens on ``host:port`` (e.g. another `make run`)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def print_urls(port: str) -> None:
    """Tell the developer where to look."""
    base = f"http://127.0.0.1:{port}"
    print(f"\n  API root:  {base}/api/v1/\n  API docs:  {base}/api/docs/")
    print(f"  Health:    {base}/healthz\n")
    print(f"  Lobby and tables:   {base}/play/  (sign in at {base}/accounts/login/)")
    print(f"  Director's console: {base}/console/")
    print(f"  Clock screen:       {base}/clock/<tournament id>/\n")
    print("  Showcase (a 60-bot tournament, in another terminal):")
    print("    .venv/bin/python manage.py run_tournament --players 60 --variant stud_hi --seed 7\n")
    print("  Ctrl-C stops the server, the worker and beat.\n", flush=True)


def start(command: list[str]) -> subprocess.Popen[bytes]:
    """Start one process in its own session, so Ctrl-C reaches it only through us."""
    return subprocess.Popen(
        command,
        cwd=PROJECT_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop_all(processes: dict[str, subprocess.Popen[bytes]]) -> None:
    """SIGTERM each main process (it stops its own children), then SIGKILL what lingers."""
    for process in processes.values():
        if process.poll() is None:
            process.terminate()
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    for process in processes.values():
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def relay_output(processes: dict[str, subprocess.Popen[bytes]]) -> str:
    """Copy each process's lines to our stdout with a prefix until one exits; return its name."""
    width = max(len(name) for name in processes)
    selector = selectors.DefaultSelector()
    for name, process in processes.items():
        assert process.stdout is not None
        selector.register(process.stdout, selectors.EVENT_READ, name)
    while True:
        for key, _ in selector.select():
            line = key.fileobj.readline()  # type: ignore[union-attr]
            if line:
                text = line.decode(errors="replace").rstrip()
                print(f"{key.data:<{width}} | {text}", flush=True)
            else:
                return str(key.data)


def main() -> int:
    """Migrate, start the three processes, and supervise them until one stops or Ctrl-C."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    port = os.environ.setdefault("PORT", "8000")
    # Checked before anything starts: a second `make run` must not start a second worker and
    # beat (nor print URLs that belong to the first) only to fail when the server binds.
    host, number = bind_address(port)
    if address_in_use(host, number):
        print(
            f"Port {number} on {host} is in use (is another `make run` running?). Stop it, or "
            f"use another port: PORT={number + 1} make run",
            file=sys.stderr,
        )
        return 2
    migrate = [sys.executable, "manage.py", "migrate", "--noinput"]
    subprocess.run(migrate, cwd=PROJECT_DIR, check=True)
    # While no staff account exists: the one-time link of the page that makes the first one.
    subprocess.run([sys.executable, "manage.py", "first_run"], cwd=PROJECT_DIR, check=True)

    def stop_on_signal(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    # Installed explicitly: a shell that starts us in the background would have SIGINT ignored.
    signal.signal(signal.SIGINT, stop_on_signal)
    signal.signal(signal.SIGTERM, stop_on_signal)
    processes = {name: start(command) for name, command in COMMANDS.items()}
    print_urls(port)
    exit_code = 0
    try:
        ended = relay_output(processes)
        print(f"{ended} stopped (exit code {processes[ended].wait()}): stopping the others.")
        exit_code = 1
    except KeyboardInterrupt:
        print("\nStopping the server, the worker and beat...", flush=True)
    finally:
        # A second Ctrl-C (or a SIGTERM sent to the whole group) must not cut the shutdown short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stop_all(processes)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
