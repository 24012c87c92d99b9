"""Gunicorn settings for the API server (make run and the Docker image)."""

import os

# make run binds to the loopback; the container sets BIND=0.0.0.0:8000.
bind = os.environ.get("BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("WEB_THREADS", "2"))
# X-Forwarded-Proto counts only from the proxies the deployment named (TRUSTED_PROXIES, as in
# the Django settings); gunicorn's own default would trust the loopback.
forwarded_allow_ips = os.environ.get("TRUSTED_PROXIES", "")
timeout = 30
graceful_timeout = 10
accesslog = "-"
errorlog = "-"
wsgi_app = "config.wsgi:application"
