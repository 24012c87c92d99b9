"""Django app config of the integrations (idempotent requests, webhooks)."""

from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "integrations"
