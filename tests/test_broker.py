"""The embedded broker writes each message whole before a worker can see it."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from kombu import Connection

from config import broker


def _connection(folder: Path) -> Connection:
    for name in ("in", "control"):
        (folder / name).mkdir(exist_ok=True)
    options = {
        "data_folder_in": str(folder / "in"),
        "data_folder_out": str(folder / "in"),
        "control_folder": str(folder / "control"),
    }
    return Connection("filesystem://", transport_options=options)


def test_filesystem_urls_use_the_atomic_transport(tmp_path: Path) -> None:
    with _connection(tmp_path) as connection:
        assert isinstance(connection.transport, broker.Transport)


def test_a_message_appears_under_its_queue_name_only_once_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    renames: list[tuple[str, str, bytes]] = []
    real_replace = os.replace

    def watching_replace(src: Any, dst: Any) -> None:
        renames.append((os.path.basename(src), os.path.basename(dst), Path(src).read_bytes()))
        real_replace(src, dst)

    monkeypatch.setattr(broker.os, "replace", watching_replace)
    with _connection(tmp_path) as connection:
        queue = connection.SimpleQueue("q")
        queue.put({"hello": "world"})
        assert queue.get(timeout=1).payload == {"hello": "world"}
        queue.close()
    (partial, final, written), *_ = renames
    assert partial.startswith(".partial-") and not partial.endswith(".q.msg")
    assert final.endswith(".q.msg")
    assert written.endswith(b"}")  # complete JSON before it took the queue's name
    assert not [f for f in os.listdir(tmp_path / "in") if f.startswith(".partial-")]


def test_the_embedded_broker_url_needs_no_hostname(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Issue 8, defect 16: kombu warned "No hostname was supplied" at every start
    with caplog.at_level("WARNING", logger="kombu.connection"), _connection(tmp_path) as connection:
        connection.ensure_connection(max_retries=1)
        connection.info()

    assert [r.getMessage() for r in caplog.records if r.name == "kombu.connection"] == []


def test_redis_urls_use_the_transport_that_keeps_its_sending_client() -> None:
    connection = Connection("redis://127.0.0.1:6379/15")  # not connected: no server needed
    assert isinstance(connection.transport, broker.RedisTransport)
    assert connection.transport.Channel is broker.RedisChannel


def test_a_redis_channel_sends_every_message_through_one_client_while_its_pool_lasts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    channel = broker.RedisChannel.__new__(broker.RedisChannel)  # no server: never connected
    channel._pool = first_pool = object()
    made: list[Any] = []

    def create_client(asynchronous: bool = False) -> Any:
        made.append(SimpleNamespace(connection_pool=channel.pool))
        return made[-1]

    monkeypatch.setattr(channel, "_create_client", create_client)

    used = []
    for _ in range(3):
        with channel.conn_or_acquire() as client:
            used.append(client)
    given = object()
    with channel.conn_or_acquire(given) as client:
        assert client is given
    channel._pool = object()  # as after a connection error (kombu's _disconnect_pools)
    with channel.conn_or_acquire() as client:
        used.append(client)

    assert used[:3] == [made[0]] * 3 and made[0].connection_pool is first_pool
    assert used[3] is made[1] is not made[0] and len(made) == 2
