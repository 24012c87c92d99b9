"""Django app config for the tables side (tables, seats, hands, the ring-game floor)."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Imported here, not at the top: they import the models, which Django loads only
        # after every app's config (the one deferred import of games; see pyproject's layers).
        from games import floor_hooks
        from games.services.chips import ring_claims
        from money.reconciliation import provider_register

        floor_hooks.connect()
        provider_register("ring tables", ring_claims)
