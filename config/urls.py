"""URL configuration: the API under /api/v1/, its schema and docs, health, admin, and the web
pages (clock, console, lobby and tables, sign-in)."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.admin_login import admin_login
from config.api_root import ApiRootView
from config.health import healthz
from config.metrics import metrics
from web.language import language_choose

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics, name="metrics"),  # Prometheus, token or allow-list only
    path("api/v1/", ApiRootView.as_view(), name="api-root"),
    path("api/v1/", include("games.api.urls")),
    path("api/v1/tournaments/", include("tourney.api.urls")),
    path("api/v1/clubs/", include("clubs.api.urls")),
    path("api/v1/", include("leagues.api.urls")),
    path("api/v1/webhooks/", include("integrations.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("admin/login/", admin_login, name="admin-login"),  # rate-limited sign-in
    path("admin/", admin.site.urls),
    # The language switch on every page: Django's set_language, saving a player's choice.
    path("i18n/setlang/", language_choose, name="set_language"),
    path("", include("web.urls")),
]

handler400 = "config.api_errors.bad_request_handler"
handler403 = "config.api_errors.permission_denied_handler"
handler404 = "config.api_errors.not_found_handler"
handler500 = "config.api_errors.server_error_handler"
