"""Django app config of the backups (it has no models: only its two commands)."""

from django.apps import AppConfig


class BackupsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "backups"
