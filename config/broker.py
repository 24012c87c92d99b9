"""The brokers' transports: kombu's filesystem transport with messages written atomically (the
embedded broker), and its Redis transport publishing through one client.

kombu 5.7's filesystem transport creates a message file and then writes it, while a worker
may already be reading it: under load a worker reads an empty file, fails to decode it and
stops (``Unrecoverable error: JSONDecodeError``), and the message is lost. Here a message is
written under a temporary name that no queue matches, then renamed into place: a reader sees
a whole message or none. Importing this module makes ``filesystem://`` use it (see
``config.celery``); Redis in production does not use it at all.

kombu's Redis channel builds a new client for every message it sends (``conn_or_acquire``):
building one (its table of 170 response callbacks) cost a third of sending a task, and every
hand sends one. The client holds nothing but the channel's connection pool, so one client
serves every message while the channel keeps that pool (it makes a new one after an error).

kombu 5.7 also kills a worker when Redis restarts while it holds messages not yet acknowledged
(a countdown's, say): closing the lost connection, the channel tries to put them back through a
pool it can no longer make, since the connection is gone (``AttributeError: 'NoneType' object
has no attribute 'hostname'``, "Unrecoverable error"), and the worker exits. Here the channel
says the connection is lost (redis' ``ConnectionError``), which kombu's close ignores as it does
for any broker gone away: the worker reconnects and goes on. The messages it held are lost
with the connection (the acknowledgement emulation is off: settings); the due times in the
database cover them (the beat sweeps).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem, redis
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps
from redis.exceptions import ConnectionError as ConnectionLost


class Channel(filesystem.Channel):
    """A filesystem channel whose messages appear in the queue folder only when complete."""

    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f".partial-{uuid.uuid4()}")
        try:
            with open(partial, "wb") as message:
                message.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)  # atomic on one file system
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel

    @property
    def default_connection_params(self) -> dict[str, Any]:
        """No default host: the broker is a folder, so a URL without a host is complete
        (kombu's default "localhost" made it warn "No hostname was supplied" at every start)."""
        return {"port": self.default_port}


CLOSED = "the broker connection was closed: the worker reconnects (is Redis up?)"


class RedisChannel(redis.Channel):
    """A Redis channel that sends through one client for as long as it keeps its pool, and
    that a lost connection closes without killing the worker."""

    _sender: Any = None

    @contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        if client:
            yield client
            return
        if self._pool is None and getattr(self.connection, "client", None) is None:
            raise ConnectionLost(CLOSED)
        if self._sender is None or self._sender.connection_pool is not self.pool:
            self._sender = self._create_client()
        yield self._sender


class RedisTransport(redis.Transport):
    Channel = RedisChannel


TRANSPORT_ALIASES["filesystem"] = "config.broker:Transport"
TRANSPORT_ALIASES["redis"] = "config.broker:RedisTransport"
