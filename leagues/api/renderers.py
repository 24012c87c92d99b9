"""``?format=csv``: a list of flat rows as CSV (the standings' columns, header first)."""

from __future__ import annotations

import csv
import io
from typing import Any

from rest_framework.renderers import BaseRenderer


class CsvRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        out = io.StringIO()
        if isinstance(data, dict):  # an error: {"error": {...}}
            data = [{"error": data.get("error", {}).get("message", "")}]
        if data:
            writer = csv.DictWriter(out, fieldnames=list(data[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(data)
        return out.getvalue().encode()
