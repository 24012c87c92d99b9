from django.apps import AppConfig


class WebConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "web"
    verbose_name = "Web pages"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from web.language import session_language_set

        user_logged_in.connect(session_language_set, dispatch_uid="web.language")
