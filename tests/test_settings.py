"""Settings come from the environment; with none set, nothing needs a server."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

PROJECT_DIR = Path(__file__).resolve().parents[1]
SERVICE_VARIABLES = {
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "STUD_DB_NAME",
}
SHOW_SETTINGS = """
import json
from django.conf import settings
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "SECRET_KEY": settings.SECRET_KEY,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "DATABASE": settings.DATABASES["default"],
    "BROKER": settings.CELERY_BROKER_URL,
    "BROKER_OPTIONS": settings.CELERY_BROKER_TRANSPORT_OPTIONS,
    "CACHE": settings.CACHES["default"],
}))
"""


def settings_process(
    var_dir: Path, prelude: str = "", **environment: str
) -> subprocess.CompletedProcess[str]:
    """Load the settings in a fresh process with only `environment` configuring the service,
    after running `prelude`."""
    env = {name: value for name, value in os.environ.items() if name not in SERVICE_VARIABLES}
    env |= {"DJANGO_SETTINGS_MODULE": "config.settings", "STUD_VAR_DIR": str(var_dir)}
    env |= environment
    return subprocess.run(
        [sys.executable, "-c", prelude + SHOW_SETTINGS],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
    )


def settings_with(var_dir: Path, **environment: str) -> dict[str, Any]:
    """The settings loaded with only `environment` configuring the service."""
    result = settings_process(var_dir, **environment)
    assert result.returncode == 0, result.stderr
    shown: dict[str, Any] = json.loads(result.stdout)
    return shown


def test_defaults_use_sqlite_and_the_embedded_broker_under_var(tmp_path: Path) -> None:
    shown = settings_with(tmp_path)

    broker_queue = str(tmp_path / "test" / "broker" / "queue")
    assert shown["DEBUG"] is False
    assert shown["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost", "[::1]"]
    # Django's, each statement timed for /metrics (django-prometheus)
    assert shown["DATABASE"]["ENGINE"] == "django_prometheus.db.backends.sqlite3"
    assert shown["DATABASE"]["NAME"] == str(tmp_path / "db.sqlite3")
    test_database = f"test-db-{os.environ['STUD_TEST_RUN_ID']}.sqlite3"
    assert shown["DATABASE"]["TEST"]["NAME"] == str(tmp_path / "test" / test_database)
    assert shown["BROKER"] == "filesystem://"
    assert shown["BROKER_OPTIONS"]["data_folder_in"] == broker_queue
    assert shown["BROKER_OPTIONS"]["data_folder_out"] == broker_queue
    assert Path(broker_queue).is_dir()
    assert shown["CACHE"]["BACKEND"] == "observability.cache.TimedFileBasedCache"


def test_an_sqlite_older_than_the_embedded_database_needs_says_what_to_do(tmp_path: Path) -> None:
    old_sqlite = "import sqlite3; sqlite3.sqlite_version_info = (3, 31, 1)\n"
    result = settings_process(tmp_path, prelude=old_sqlite)

    assert result.returncode != 0
    assert "needs 3.35 or newer" in result.stderr
    assert "set DATABASE_URL" in result.stderr


def test_the_dev_secret_key_is_generated_once_and_kept(tmp_path: Path) -> None:
    first = settings_with(tmp_path)["SECRET_KEY"]
    second = settings_with(tmp_path)["SECRET_KEY"]

    assert len(first) >= 50
    assert second == first
    assert (tmp_path / "secret_key").read_text() == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def test_database_and_redis_urls_switch_to_postgresql_and_redis(tmp_path: Path) -> None:
    shown = settings_with(
        tmp_path,
        DATABASE_URL="postgres://stud:pw@db.example:5432/stud",
        REDIS_URL="redis://cache.example:6379/2",
        SECRET_KEY="from-the-environment",
        DEBUG="true",
        ALLOWED_HOSTS="stud.example,api.stud.example",
    )

    assert shown["DATABASE"]["ENGINE"] == "config.postgres"  # Django's, its health check cheaper
    assert (shown["DATABASE"]["NAME"], shown["DATABASE"]["HOST"]) == ("stud", "db.example")
    assert shown["BROKER"] == "redis://cache.example:6379/2"
    assert shown["BROKER_OPTIONS"] == {"ack_emulation": False}  # see test_broker
    assert shown["CACHE"]["BACKEND"] == "observability.cache.TimedRedisCache"
    assert shown["CACHE"]["LOCATION"] == "redis://cache.example:6379/2"
    assert shown["SECRET_KEY"] == "from-the-environment"
    assert shown["DEBUG"] is True
    assert shown["ALLOWED_HOSTS"] == ["stud.example", "api.stud.example"]
    assert not (tmp_path / "secret_key").exists()


def test_a_database_url_without_a_secret_key_is_refused(tmp_path: Path) -> None:
    env = {name: value for name, value in os.environ.items() if name not in SERVICE_VARIABLES}
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "STUD_VAR_DIR": str(tmp_path),
        "DATABASE_URL": "postgres://stud@db.example/stud",
    }
    result = subprocess.run(
        [sys.executable, "-c", SHOW_SETTINGS],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
    )

    assert result.returncode == 1
    assert "SECRET_KEY must be set when DATABASE_URL is set." in result.stderr


def test_a_worker_can_be_pointed_at_another_database_name(tmp_path: Path) -> None:
    shown = settings_with(tmp_path, STUD_DB_NAME="/elsewhere/test.sqlite3")

    assert shown["DATABASE"]["NAME"] == "/elsewhere/test.sqlite3"
