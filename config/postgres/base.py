"""Django's PostgreSQL backend (django-prometheus' wrapper of it: every statement counted and
timed for /metrics), its connection's health checked without a round trip while the
server has said nothing.

With ``CONN_HEALTH_CHECKS`` Django checks a kept connection before its first use in each
request and each task (``config.celery``), by sending ``SELECT 1`` and waiting for the
answer: a round trip before every table poll and every hand. Between statements the server
sends nothing unprompted on a healthy connection, and a connection it ends (a restart, an
administrator's terminate, a timeout) receives its last message or the end of the stream. So
the check first asks, without waiting, whether the connection has anything to read: nothing
means it is as its last statement left it; anything means the round trip decides, as before.
"""

from __future__ import annotations

import select

from django_prometheus.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        if self.connection is None or self.connection.closed or self.connection.broken:
            return False
        try:
            readable, _, _ = select.select([self.connection.fileno()], [], [], 0)
        except (OSError, ValueError):  # the socket is gone
            return False
        return not readable or super().is_usable()
