"""URLs of the ring-game floor API, included under /api/v1/ by ``games.api.urls``."""

from django.urls import path

from games.api import floor_views as views

urlpatterns = [
    path("games/", views.GameListCreateApi.as_view(), name="games"),
    path("games/waitlist/", views.WaitlistApi.as_view(), name="waitlist"),
    path("games/waitlist/<id:entry_id>/", views.WaitlistEntryApi.as_view(), name="waitlist-entry"),
    path(
        "games/waitlist/<id:entry_id>/accept/",
        views.WaitlistAcceptApi.as_view(),
        name="waitlist-accept",
    ),
    path(
        "games/waitlist/<id:entry_id>/decline/",
        views.WaitlistDeclineApi.as_view(),
        name="waitlist-decline",
    ),
    path(
        "games/waitlist/<id:entry_id>/move/", views.WaitlistMoveApi.as_view(), name="waitlist-move"
    ),
    path("games/<id:game_id>/", views.GameDetailApi.as_view(), name="game-detail"),
    path("games/<id:game_id>/waitlist/", views.GameWaitlistApi.as_view(), name="game-waitlist"),
    path(
        "games/<id:game_id>/confirm-table/",
        views.GameConfirmTableApi.as_view(),
        name="game-confirm-table",
    ),
    path(
        "tables/<id:table_id>/seat-change/",
        views.TableSeatChangeApi.as_view(),
        name="table-seat-change",
    ),
    path(
        "tables/<id:table_id>/report-left/",
        views.TableReportLeftApi.as_view(),
        name="table-report-left",
    ),
]
