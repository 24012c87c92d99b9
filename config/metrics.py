"""GET /metrics: Prometheus' text format, for the scraper only.

Answered to a request with ``Authorization: Bearer <METRICS_TOKEN>`` or from an address in
``METRICS_ALLOW_FROM``; to anyone else (and to all when neither is set) a 404, as for a URL
that does not exist. The events' counters come from this process, or with
``PROMETHEUS_MULTIPROC_DIR`` from every process writing to that folder (gunicorn's workers,
Celery's pool processes on this host); the state's gauges are read now
(``config.metrics_state``).
"""

from __future__ import annotations

import hmac
import ipaddress
import os

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from api_conventions.client_address import client_ip
from config.metrics_state import StateCollector


def scraper_allowed(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return True
    try:
        address = ipaddress.ip_address(client_ip(request))
    except ValueError:
        return False
    return any(address in network for network in settings.METRICS_ALLOW_FROM)


def events_registry() -> CollectorRegistry:
    """This process's metrics, or every process's of this host in multiprocess mode."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    return registry


def state_registry() -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(StateCollector())
    return registry


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    if not scraper_allowed(request):
        raise Http404("no such URL")
    body = generate_latest(events_registry()) + generate_latest(state_registry())
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
