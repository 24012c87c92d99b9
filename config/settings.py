"""Django settings, read from the environment (django-environ).

With nothing set, everything runs on this machine with no server: a SQLite file and a
filesystem Celery broker, both under ``var/``. Setting ``DATABASE_URL`` and ``REDIS_URL``
(or ``CELERY_BROKER_URL``) switches to PostgreSQL and Redis; see the README's configuration table.
"""

import ipaddress
import os
import secrets
import uuid
from pathlib import Path
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

from api_conventions.client_address import trusted_networks
from observability.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()

# pytest sets PYTEST_VERSION for the whole run, and worker processes started by the tests
# inherit it: their broker, cache and queue stay apart from a `make run` on the same machine.
TESTING = "PYTEST_VERSION" in os.environ
# One id per test session, put in the environment so that the workers it starts inherit it:
# two sessions at once (two checkouts' agents, two terminals) get their own SQLite test file,
# queue and cache keys.
TEST_RUN_ID = os.environ.setdefault("STUD_TEST_RUN_ID", uuid.uuid4().hex[:8]) if TESTING else ""
VAR_DIR = Path(env.str("STUD_VAR_DIR", default=str(BASE_DIR / "var")))
RUN_DIR = VAR_DIR / "test" if TESTING else VAR_DIR
RUN_DIR.mkdir(parents=True, exist_ok=True)

EMBEDDED_DATABASE = "DATABASE_URL" not in os.environ

DEBUG = env.bool("DEBUG", default=False)


def _dev_secret_key(path: Path) -> str:
    """Return the local development key, generating it on first use (never committed)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as key_file:
        key = secrets.token_urlsafe(50)
        key_file.write(key)
    return key


if "SECRET_KEY" in os.environ:
    SECRET_KEY = env.str("SECRET_KEY")
elif EMBEDDED_DATABASE:
    SECRET_KEY = _dev_secret_key(VAR_DIR / "secret_key")
else:
    raise ImproperlyConfigured("SECRET_KEY must be set when DATABASE_URL is set.")

LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=LOOPBACK_HOSTS)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# --- Proxies and HTTPS (deploy/README.md) ---------------------------------------------------
# The reverse proxies in front of the service, addresses or networks (10.0.0.2,10.1.0.0/16).
# Only a request whose peer is one of them may say, in X-Forwarded-For and X-Forwarded-Proto,
# where it came from and that it came over HTTPS: the sign-in limits, the logs
# (api_conventions.client_address) and Django (SECURE_PROXY_SSL_HEADER, config.proxy_headers)
# alike. None by default: every header of that kind is ignored.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
try:
    trusted_networks(tuple(TRUSTED_PROXIES))
except ValueError as error:
    raise ImproperlyConfigured(
        f"TRUSTED_PROXIES={','.join(TRUSTED_PROXIES)!r}: {error}; list the proxies' addresses "
        "or networks, comma-separated (10.0.0.2,10.1.0.0/16)"
    ) from error
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Served over HTTPS: plain HTTP is redirected (but /healthz, for health checks from inside),
# cookies are Secure, and browsers are told to come back over HTTPS only (HSTS). On by default
# as soon as ALLOWED_HOSTS names a host other than this machine's loopback; HTTPS=0 turns it
# off (a trial over plain HTTP).
HTTPS = env.bool("HTTPS", default=not DEBUG and set(ALLOWED_HOSTS) - set(LOOPBACK_HOSTS) != set())
SECURE_SSL_REDIRECT = HTTPS
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
if HTTPS:
    SECURE_HSTS_SECONDS = env.int("HSTS_SECONDS", default=365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("HSTS_INCLUDE_SUBDOMAINS", default=True)
    # Only a consent to the browsers' preload list: nothing happens until the site is submitted.
    SECURE_HSTS_PRELOAD = env.bool("HSTS_PRELOAD", default=True)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "games",
    "clubs",
    "tourney",
    "leagues",
    "money",
    "integrations",
    "django_htmx",
    "web",
    "backups",
]

MIDDLEWARE = [
    "config.proxy_headers.UntrustedProxyHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.request_limits.BodySizeLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the cookie, then Accept-Language; the player's saved choice beats both
    # once signed in (web.language, after the authentication).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "web.language.SavedLanguageMiddleware",
    # POSTs with an Idempotency-Key run in one transaction with the record of their response
    "integrations.idempotency.IdempotencyMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "web.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context.page",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
SQLITE_NEEDED = (3, 35)
"""The oldest SQLite the embedded database works on: a tournament hand's end holds its table
with ``UPDATE ... RETURNING`` (``tourney.services.steps.hand_end``)."""
if EMBEDDED_DATABASE:
    import sqlite3

    if sqlite3.sqlite_version_info < SQLITE_NEEDED:
        raise ImproperlyConfigured(
            f"this Python's SQLite is {sqlite3.sqlite_version}; the embedded database needs "
            f"{'.'.join(map(str, SQLITE_NEEDED))} or newer: use a Python built with a newer "
            "SQLite (python.org's and Debian 12's are), or PostgreSQL (set DATABASE_URL)"
        )
    DATABASES: dict[str, dict[str, Any]] = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "db.sqlite3"),
            # A file, not memory, so that worker processes started by tests can open it.
            "TEST": {"NAME": str(RUN_DIR / f"test-db-{TEST_RUN_ID}.sqlite3")},
            "OPTIONS": {
                # Web, worker and beat share the file: wait for locks instead of failing.
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            },
        }
    }
else:
    DATABASES = {"default": env.db_url("DATABASE_URL")}
    # Workers run many short tasks: keeping a connection for a minute saves a reconnect per
    # task. Tests keep the default (0) so that test databases can be dropped at the end.
    DATABASES["default"].setdefault(
        "CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=0 if TESTING else 60)
    )
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"]["ENGINE"] = "config.postgres"  # its health check: see there
# Test worker processes are pointed at the test database (test_<name>) with this variable.
if "STUD_DB_NAME" in os.environ:
    DATABASES["default"]["NAME"] = env.str("STUD_DB_NAME")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis, broker and cache ----------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "filesystem://")
# On Redis, a message a worker has taken is gone from the broker (``ack_emulation`` off): the
# worker keeps its unacknowledged messages in memory and puts them back when it stops (SIGTERM),
# as it does with its countdowns. Kombu's emulation would copy each into Redis and delete it at
# the acknowledgement, two round trips a task (a tenth of a bot hand's task), so that a message
# whose worker was killed came back after the hour of ``visibility_timeout``; the beat sweeps
# (tables, floor, tournaments, webhooks) already find such work within seconds from the
# database, and a task run twice or late changes nothing.
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {"ack_emulation": False}
if CELERY_BROKER_URL.startswith("filesystem://"):
    # Embedded broker: messages are files in one folder that producers and workers share.
    BROKER_DIR = RUN_DIR / "broker"
    for folder in ("queue", "control"):
        (BROKER_DIR / folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "control_folder": str(BROKER_DIR / "control"),
    }

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": f"test-{TEST_RUN_ID}" if TESTING else "stud",
        }
    }
else:
    # A file cache, not local memory: the worker's heartbeat must be visible to the web.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(RUN_DIR / "cache"),
            "KEY_PREFIX": f"test-{TEST_RUN_ID}" if TESTING else "",
        }
    }

# --- Celery ---------------------------------------------------------------------------------
CELERY_TASK_DEFAULT_QUEUE = f"stud-test-{TEST_RUN_ID}" if TESTING else "stud"
# Tables' tasks go to TABLE_QUEUES queues "<default>-table-<table id mod TABLE_QUEUES>", each
# consumed by one worker process (deploy/WORKERS.md); 0: everything on the default queue.
TABLE_QUEUES = env.int("TABLE_QUEUES", default=0)
CELERY_TASK_IGNORE_RESULT = True  # no result backend: tasks write their effects to the DB
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fix-up closes the database connection before and after every task unless it
# may reuse it this many tasks; the workers instead keep it as the web does (CONN_MAX_AGE and
# the health check, applied around each task in config.celery), so a task does not pay a new
# connection (about a fifth of a bot hand's task on PostgreSQL).
CELERY_DB_REUSE_MAX = 1_000_000
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE_FILENAME = str(RUN_DIR / "celerybeat-schedule")
WORKER_HEARTBEAT_SECONDS = 5
# /healthz calls the workers down when no heartbeat arrived for this long.
WORKER_HEARTBEAT_MAX_AGE = env.int("WORKER_HEARTBEAT_MAX_AGE", default=30)
TABLE_SWEEP_SECONDS = 2.0
# /healthz calls a hand stuck when it is overdue by more than this (the sweep moves an overdue
# hand within TABLE_SWEEP_SECONDS; the rest is slack for a busy worker).
HEALTH_HAND_OVERDUE_SECONDS = env.float(
    "HEALTH_HAND_OVERDUE_SECONDS", default=TABLE_SWEEP_SECONDS + 8
)
CELERY_BEAT_SCHEDULE = {
    "worker-heartbeat": {
        "task": "config.tasks.ping",
        "schedule": WORKER_HEARTBEAT_SECONDS,
        "options": {"expires": WORKER_HEARTBEAT_SECONDS * 2},
    },
    # Action clocks: the safety net that expires overdue decisions whose timer task was lost
    # and moves on hands whose worker died (the countdown task is the fast path).
    "table-sweep": {
        "task": "games.tasks.sweep",
        "schedule": TABLE_SWEEP_SECONDS,
        "options": {"expires": 4},
    },
    # The ring-game floor: expires overdue seat offers and calls names a lost task missed.
    "floor-sweep": {
        "task": "games.tasks.floor_sweep",
        "schedule": 2.0,
        "options": {"expires": 4},
    },
    # Tournament clocks: levels and breaks from the deadlines in the database.
    "tournament-tick": {
        "task": "tourney.tasks.tournament_tick",
        "schedule": 2.0,
        "options": {"expires": 4},
    },
    # Webhooks: deliveries whose task was lost or whose retry is due.
    "webhook-sweep": {
        "task": "integrations.tasks.webhook_sweep",
        "schedule": 5.0,
        "options": {"expires": 10},
    },
    "idempotency-expire": {
        "task": "integrations.tasks.idempotency_expire",
        "schedule": 3600.0,
        "options": {"expires": 600},
    },
}
# A response to a POST with an Idempotency-Key is replayed to retries for this long.
IDEMPOTENCY_KEY_HOURS = env.int("IDEMPOTENCY_KEY_HOURS", default=24)
# Webhook retries wait base * 2^(attempt-1) seconds, at most the max (a receiver that is down
# loses nothing: its deliveries wait). Private addresses (127.0.0.1, 10.x, ...) may receive
# webhooks only in development and tests.
WEBHOOK_RETRY_BASE_SECONDS = env.float("WEBHOOK_RETRY_BASE_SECONDS", default=2.0)
WEBHOOK_RETRY_MAX_SECONDS = env.float("WEBHOOK_RETRY_MAX_SECONDS", default=3600.0)
WEBHOOK_ALLOW_PRIVATE_HOSTS = env.bool("WEBHOOK_ALLOW_PRIVATE_HOSTS", default=DEBUG or TESTING)

# --- API ------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.authentication.PlayerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Bodies are JSON only, refused with a code when too deep, not text or out of range.
    "DEFAULT_PARSER_CLASSES": ["config.json_body.JSONBodyParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "EXCEPTION_HANDLER": "config.api_errors.api_exception_handler",
    # DRF's own client address (a throttle's get_ident) never reads X-Forwarded-For: the
    # service's one answer is api_conventions.client_address.client_ip.
    "NUM_PROXIES": 0,
}
# The largest request body accepted (config.request_limits answers 413 above it).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("MAX_REQUEST_BODY_BYTES", default=256 * 1024)

# Signing in with a password (games.services.sign_in, through this backend): failures are
# counted per client address and per username from that address; past the free ones, each
# failure doubles the wait before the next attempt, up to max_wait_seconds.
AUTHENTICATION_BACKENDS = ["games.sign_in_backend.SignInLimitsBackend"]
SIGN_IN_LIMITS = {
    "free_failures": env.int("SIGN_IN_FREE_FAILURES", default=5),
    "free_failures_per_address": env.int("SIGN_IN_FREE_FAILURES_PER_ADDRESS", default=20),
    "max_wait_seconds": env.int("SIGN_IN_MAX_WAIT_SECONDS", default=900),
    "forget_after_seconds": 24 * 3600,
}
SIGN_IN_CACHE = "default"
# A set-password link (staff create accounts without knowing their password) works once,
# for this long.
PASSWORD_RESET_TIMEOUT = env.int("SET_PASSWORD_LINK_SECONDS", default=3 * 24 * 3600)

# Players' passwords (games.services.players): Django's validators.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 10},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
SPECTACULAR_SETTINGS = {
    "TITLE": "Seven Card Stud API",
    "DESCRIPTION": "Tables, hands and tournaments of Seven Card Stud.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The error body's code as one enum of every app's codes (after the default enum hook).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.error_codes.error_code_enum",
    ],
    "ENUM_NAME_OVERRIDES": {
        "StatusEnum": "games.models.TableStatus",
        "DeliveryStatusEnum": "integrations.models.DeliveryStatus",
    },
}

# --- Web pages (session login; the API keeps its tokens) -------------------------------------
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:lobby"
LOGOUT_REDIRECT_URL = "web:login"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

# --- Provably fair dealing ------------------------------------------------------------------
# When players may see a finished hand's server seed (staff always can, on the logged audit
# endpoint): "table_closed" (default), "never", or a number of seconds after the hand ends.
STUD_SEED_REVEAL = env.str("STUD_SEED_REVEAL", default="table_closed")
if STUD_SEED_REVEAL not in ("table_closed", "never") and not STUD_SEED_REVEAL.isdigit():
    raise ImproperlyConfigured(
        f"STUD_SEED_REVEAL={STUD_SEED_REVEAL!r}: use table_closed, never or a number of seconds"
    )

# --- Static files, i18n, logging ------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
WHITENOISE_USE_FINDERS = True  # serve app static files without a collectstatic step

# The rooms' languages (docs/i18n.md): English by default, Arabic (right to left) and Greek.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ar", "العربية"), ("el", "Ελληνικά")]
LOCALE_PATHS = [BASE_DIR / "config" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# The digits of numbers on the pages in Arabic: "western" (0-9, as the rooms' own rule pages
# write them) or "arabic-indic" (U+0660-U+0669); web.numbers applies it to every number shown.
STUD_DIGITS = env.str("STUD_DIGITS", default="western")
if STUD_DIGITS not in ("western", "arabic-indic"):
    raise ImproperlyConfigured(
        f"STUD_DIGITS={STUD_DIGITS!r}: use western (the default) or arabic-indic"
    )


# --- Observability: metrics, logs, error reports (docs/operations.md) -----------------------
# One block, kept together: /metrics (config.metrics), the log format and context
# (observability.logs, config.request_context), Sentry (observability.sentry).
# /metrics answers a scraper with "Authorization: Bearer <METRICS_TOKEN>" or from an address
# (or network) in METRICS_ALLOW_FROM; anyone else gets 404. Neither set: no one is answered.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
METRICS_ALLOW_FROM = [
    ipaddress.ip_network(network, strict=False)
    for network in env.list("METRICS_ALLOW_FROM", default=[])
]
# Multiprocess metrics (gunicorn's and Celery's processes): prometheus-client reads the folder
# from the environment at import; make sure it exists.
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    Path(os.environ["PROMETHEUS_MULTIPROC_DIR"]).mkdir(parents=True, exist_ok=True)
# Requests by view and status with their latency (django-prometheus, first and last but for
# the untrusted proxy headers' removal, which stays first), each request's log context
# (request id, user, table/hand/tournament of its URL) right after.
_PROXY_HEADERS, *_REST = MIDDLEWARE
MIDDLEWARE = [
    _PROXY_HEADERS,
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "config.request_context.RequestContextMiddleware",
    *_REST,
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]
# Database statements and cache operations timed, by the same backends wrapped.
_TIMED_DATABASES = {"django.db.backends.sqlite3": "django_prometheus.db.backends.sqlite3"}
DATABASES["default"]["ENGINE"] = _TIMED_DATABASES.get(
    DATABASES["default"]["ENGINE"], DATABASES["default"]["ENGINE"]
)  # config.postgres is django-prometheus' PostgreSQL backend already
_TIMED_CACHES = {
    "django.core.cache.backends.redis.RedisCache": "observability.cache.TimedRedisCache",
    "django.core.cache.backends.filebased.FileBasedCache": (
        "observability.cache.TimedFileBasedCache"
    ),
}
CACHES["default"]["BACKEND"] = _TIMED_CACHES[CACHES["default"]["BACKEND"]]

# Logs: LOG_FORMAT=json (one JSON object a line, for a log store) or plain (development);
# every line carries the request or task's context (request_id, user, table, hand,
# tournament). Default: json with a DATABASE_URL (a deployment), plain on the embedded
# database (make run), with DEBUG and in tests.
LOG_FORMAT = env.str(
    "LOG_FORMAT", default="plain" if DEBUG or TESTING or EMBEDDED_DATABASE else "json"
)
LOGGING = logging_config(log_format=LOG_FORMAT, level=env.str("LOG_LEVEL", default="INFO"))

# Error reports: set SENTRY_DSN (and install the extra: pip install '.[sentry]'); unset,
# nothing is sent and sentry-sdk need not be installed.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    try:
        import sentry_sdk  # noqa: F401
    except ImportError as missing:
        raise ImproperlyConfigured(
            "SENTRY_DSN is set but sentry-sdk is not installed: pip install '.[sentry]'"
        ) from missing
    from observability.sentry import sentry_init

    sentry_init(
        dsn=SENTRY_DSN,
        environment=env.str("SENTRY_ENVIRONMENT", default="production"),
        release=env.str("SENTRY_RELEASE", default=""),
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
    )
