"""The embedded broker: kombu's filesystem transport, with messages written atomically.

kombu 5.7's filesystem transport creates a message file and then writes it, while a worker
may already be reading it: under load a worker reads an empty file, fails to decode it and
stops (``Unrecoverable error: JSONDecodeError``), and the message is lost. Here a message is
written under a temporary name that no queue matches, then renamed into place: a reader sees
a whole message or none. Importing this module makes ``filesystem://`` use it (see
``config.celery``); Redis in production does not use it at all.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


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


TRANSPORT_ALIASES["filesystem"] = "config.broker:Transport"
