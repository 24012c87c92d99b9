"""Gunicorn settings for the API server (make run and the Docker image)."""

import os

# make run binds to the loopback; the container sets BIND=0.0.0.0:8000.
bind = os.environ.get("BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("WEB_THREADS", "2"))
timeout = 30
graceful_timeout = 10
# No access log of gunicorn's own: the application logs each request once, with its request
# id and user, in the service's log format (config.request_context, logger stud.requests).
accesslog = None
errorlog = "-"
wsgi_app = "config.wsgi:application"
