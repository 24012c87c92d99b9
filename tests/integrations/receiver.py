"""A tiny webhook receiver on 127.0.0.1 for the tests (no tests here): it checks each
request's signature as a real receiver would and records what it accepted."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from integrations.webhooks.signing import HEADER, verify

PORTS = range(8700, 8800)
"""This helper's port range on the shared machine."""


class Receiver:
    """Accepts signed webhooks for one secret; ``events`` are the bodies accepted, in
    order; ``refused`` counts requests with a bad signature; ``hosts`` the Host header of
    every request."""

    def __init__(self, secret: str, port: int | None = None) -> None:
        self.secret = secret
        self.events: list[dict[str, Any]] = []
        self.refused = 0
        self.hosts: list[str] = []
        self.server = self._bind(port)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hooks/stud"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _bind(self, port: int | None) -> ThreadingHTTPServer:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.hosts.append(self.headers.get("Host", ""))
                if not verify(receiver.secret, self.headers.get(HEADER, ""), body):
                    receiver.refused += 1
                    self.send_response(400)
                else:
                    receiver.events.append(json.loads(body))
                    self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        for candidate in [port] if port else PORTS:
            try:
                return ThreadingHTTPServer(("127.0.0.1", candidate), Handler)
            except OSError:
                continue
        raise RuntimeError("no free port in 8700-8799")

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *args: Any) -> None:
        self.server.shutdown()
        self.server.server_close()


def free_port() -> int:
    """A port in the range that nothing listens on (a receiver that is down)."""
    probe = Receiver("-")
    port = probe.port
    probe.server.server_close()
    return port
