"""Django app config of the leagues; connects the receiver of tourney's signal."""

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"

    def ready(self) -> None:
        from leagues import receivers  # noqa: F401  (connects the signal receiver)
