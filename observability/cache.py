"""Django's cache backends, each operation timed (``stud_cache_operation_seconds``) and each
``get`` counted as a hit or a miss. django-prometheus' own cache backends count gets only,
and its Redis one needs django-redis, which the service does not use."""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.redis import RedisCache

from observability.metrics import cache_gets, cache_seconds

_MISSING = object()


class TimedCache:
    """Mixed in before a Django cache backend."""

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        with cache_seconds.labels("get").time():
            value = super().get(key, _MISSING, version)  # type: ignore[misc]
        cache_gets.labels("miss" if value is _MISSING else "hit").inc()
        return default if value is _MISSING else value

    def set(self, *args: Any, **kwargs: Any) -> Any:
        with cache_seconds.labels("set").time():
            return super().set(*args, **kwargs)  # type: ignore[misc]

    def add(self, *args: Any, **kwargs: Any) -> Any:
        with cache_seconds.labels("add").time():
            return super().add(*args, **kwargs)  # type: ignore[misc]

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        with cache_seconds.labels("delete").time():
            return super().delete(*args, **kwargs)  # type: ignore[misc]

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        with cache_seconds.labels("get_many").time():
            return super().get_many(*args, **kwargs)  # type: ignore[misc]

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        with cache_seconds.labels("incr").time():
            return super().incr(*args, **kwargs)  # type: ignore[misc]


class TimedRedisCache(TimedCache, RedisCache):
    pass


class TimedFileBasedCache(TimedCache, FileBasedCache):
    pass
