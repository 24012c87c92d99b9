"""URLs of the tables API, included under /api/v1/."""

from django.urls import path, register_converter

from games.api import accounts, passwords, views


class IdConverter:
    """A database id: digits, at most 18 of them, so a huge number is a 404, not an
    overflow in the database driver."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")

urlpatterns = [
    path("auth/token/", views.TokenObtainApi.as_view(), name="auth-token"),
    path("auth/token/revoke/", views.TokenRevokeApi.as_view(), name="auth-token-revoke"),
    path("auth/token/rotate/", views.TokenRotateApi.as_view(), name="auth-token-rotate"),
    path("auth/set-password/", passwords.PasswordSetApi.as_view(), name="auth-set-password"),
    path("players/", accounts.PlayerListCreateApi.as_view(), name="players"),
    path("players/me/", views.PlayerMeApi.as_view(), name="players-me"),
    path("players/me/password/", passwords.PasswordChangeApi.as_view(), name="players-password"),
    path("players/<id:player_id>/", accounts.PlayerDetailApi.as_view(), name="player-detail"),
    path(
        "players/<id:player_id>/password-link/",
        passwords.PasswordLinkCreateApi.as_view(),
        name="player-password-link",
    ),
    path(
        "players/me/client-seed/", views.PlayerClientSeedApi.as_view(), name="players-client-seed"
    ),
    path(
        "players/<id:player_id>/account/",
        accounts.PlayerAccountApi.as_view(),
        name="player-account",
    ),
    path(
        "players/<id:player_id>/transactions/",
        accounts.PlayerTransactionsApi.as_view(),
        name="player-transactions",
    ),
    path(
        "players/<id:player_id>/deposit/",
        accounts.PlayerDepositApi.as_view(),
        name="player-deposit",
    ),
    path(
        "players/<id:player_id>/withdraw/",
        accounts.PlayerWithdrawApi.as_view(),
        name="player-withdraw",
    ),
    path("tables/", views.TableListCreateApi.as_view(), name="tables"),
    path("tables/<id:table_id>/", views.TableDetailApi.as_view(), name="table-detail"),
    path("tables/<id:table_id>/sit/", views.TableSitApi.as_view(), name="table-sit"),
    path(
        "tables/<id:table_id>/client-seed/",
        views.TableClientSeedApi.as_view(),
        name="table-client-seed",
    ),
    path("tables/<id:table_id>/leave/", views.TableLeaveApi.as_view(), name="table-leave"),
    path("tables/<id:table_id>/top-up/", views.TableTopUpApi.as_view(), name="table-top-up"),
    path("tables/<id:table_id>/sit-out/", views.TableSitOutApi.as_view(), name="table-sit-out"),
    path("tables/<id:table_id>/sit-in/", views.TableSitInApi.as_view(), name="table-sit-in"),
    path("tables/<id:table_id>/back/", views.TableBackApi.as_view(), name="table-back"),
    path("tables/<id:table_id>/pause/", views.TablePauseApi.as_view(), name="table-pause"),
    path("tables/<id:table_id>/resume/", views.TableResumeApi.as_view(), name="table-resume"),
    path("tables/<id:table_id>/act/", views.TableActApi.as_view(), name="table-act"),
    path("tables/<id:table_id>/events/", views.TableEventsApi.as_view(), name="table-events"),
    path("hands/<id:hand_id>/", views.HandDetailApi.as_view(), name="hand-detail"),
    path("hands/<id:hand_id>/history/", views.HandHistoryApi.as_view(), name="hand-history"),
    path("hands/<id:hand_id>/verify/", views.HandVerifyApi.as_view(), name="hand-verify"),
    path("hands/<id:hand_id>/audit/", views.HandAuditApi.as_view(), name="hand-audit"),
    path("hands/audits/", views.HandAuditLogApi.as_view(), name="hand-audits"),
]

# the ring-game floor (imported after the converter is registered)
from games.api.floor_urls import urlpatterns as floor_urlpatterns  # noqa: E402

urlpatterns += floor_urlpatterns
