"""Django app config of the tournament side: connects the receivers of games' signals."""

from django.apps import AppConfig


class TourneyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tourney"

    def ready(self) -> None:
        from money.reconciliation import provider_register
        from tourney import receivers  # noqa: F401  (connects on import)
        from tourney.services.steps.payments import tournament_claims

        provider_register("tournaments", tournament_claims)
