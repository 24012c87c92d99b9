"""Log lines: JSON in production, plain text in development, each with the log context.

The standard library's logging with python-json-logger's formatter, not structlog: every line
this service writes goes through the standard library already (our modules, Django, Celery,
gunicorn's error log), so one filter on the handler gives each of them the context and one
formatter makes each a JSON object, with no second logging API to learn or to wire into the
others.
"""

from __future__ import annotations

import logging
from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

from observability import context

FORMATS = ("json", "plain")


class ContextFilter(logging.Filter):
    """Puts the log context's fields on each record (``record.request_id``, ``record.table``,
    ...) and, for the plain format, all of them as one ``record.context`` text."""

    def filter(self, record: logging.LogRecord) -> bool:
        fields = context.current()
        for name, value in fields.items():
            setattr(record, name, value)
        record.context = " ".join(f"{name}={fields[name]}" for name in fields) or "-"
        return True


class JsonLines(JsonFormatter):
    """One JSON object a line: time, level, logger, message, the context, the record's extra
    fields and, after an error, its traceback."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            "{levelname}{name}{message}",
            style="{",
            rename_fields={"levelname": "level", "name": "logger"},
            reserved_attrs=[*RESERVED_ATTRS, "context", "color_message"],
            timestamp="time",  # ISO 8601, UTC
            **kwargs,
        )


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """Django's LOGGING for ``log_format`` ("json" or "plain") at ``level``."""
    if log_format not in FORMATS:
        raise ValueError(f"LOG_FORMAT={log_format!r}: use one of {', '.join(FORMATS)}")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": ContextFilter}},
        "formatters": {
            "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(context)s]: %(message)s"},
            "json": {"()": JsonLines},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": log_format,
                "filters": ["context"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Its DEBUG lines are every SQL statement with its parameters: hands' seeds and
            # snapshots (every card). Never below INFO, whatever LOG_LEVEL says.
            "django.db.backends": {"level": "INFO"},
        },
    }
