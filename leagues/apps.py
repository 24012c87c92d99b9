"""Django app config of the leagues: connects the receivers of tourney's signals and
registers the season pots with ``ledger_check``."""

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"

    def ready(self) -> None:
        from leagues import receivers  # noqa: F401  (connects the signal receivers)
        from leagues.services.fees import pot_claims
        from money.reconciliation import provider_register

        provider_register("season pots", pot_claims)
