"""Gunicorn settings for the API server (make run and the Docker image)."""

import os

from gunicorn import glogging

from observability.logs import JsonLines

# make run binds to the loopback; the container sets BIND=0.0.0.0:8000.
bind = os.environ.get("BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("WEB_THREADS", "2"))
# X-Forwarded-Proto counts only from the proxies the deployment named (TRUSTED_PROXIES, as in
# the Django settings); gunicorn's own default would trust the loopback.
forwarded_allow_ips = os.environ.get("TRUSTED_PROXIES", "")
timeout = 30
graceful_timeout = 10
# No access log of gunicorn's own: the application logs each request once, with its request
# id and user, in the service's log format (config.request_context, logger stud.requests).
accesslog = None
errorlog = "-"
wsgi_app = "config.wsgi:application"


class Logger(glogging.Logger):
    """gunicorn's own lines (its start, its workers' starts and exits) in the service's log
    format: as JSON objects with LOG_FORMAT=json (observability.logs)."""

    def setup(self, cfg: object) -> None:
        super().setup(cfg)
        if os.environ.get("LOG_FORMAT") == "json":
            for handler in self.error_log.handlers:
                handler.setFormatter(JsonLines())


logger_class = Logger
