"""Capture what the service logs, formatted as production writes it (JSON lines, with the
log context), at DEBUG from every logger."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from observability.logs import ContextFilter, JsonLines


class Captured:
    def __init__(self) -> None:
        self.stream = io.StringIO()

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    def lines(self) -> list[dict[str, Any]]:
        """Every line parsed (a line that is not one JSON object fails the test)."""
        return [json.loads(line) for line in self.text.splitlines()]


@contextmanager
def logged(level: int = logging.DEBUG) -> Iterator[Captured]:
    captured = Captured()
    handler = logging.StreamHandler(captured.stream)
    handler.setFormatter(JsonLines())
    handler.addFilter(ContextFilter())
    root = logging.getLogger()
    before = root.level
    root.addHandler(handler)
    root.setLevel(level)
    try:
        yield captured
    finally:
        root.removeHandler(handler)
        root.setLevel(before)
