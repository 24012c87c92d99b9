"""The web pages' URLs (namespace ``web``)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from games.models import TableStatus
from web.views import (
    accounts,
    auth,
    cashier,
    clock,
    console,
    desk,
    desk_club,
    desk_leagues,
    desk_players,
    desk_ring,
    desk_schedules,
    desk_tournaments,
    first_run,
    my_account,
    play,
    prints,
    purchases,
    standings,
    waitlists,
)

app_name = "web"

urlpatterns = [
    path("", first_run.root, name="root"),
    path("setup/", first_run.setup, name="setup"),
    path("accounts/login/", auth.sign_in, name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", accounts.change_password, name="change-password"),
    path(
        "accounts/set-password/<str:uid>/<str:token>/",
        accounts.set_password,
        name="set-password",
    ),
    path("clock/<int:tournament_id>/", clock.clock_page, name="clock"),
    path("clock/<int:tournament_id>/live/", clock.clock_live, name="clock-live"),
    path("console/", console.console_home, name="console"),
    path(
        "console/tables/<int:table_id>/pause/",
        console.ring_table_status,
        {"status": TableStatus.PAUSED},
        name="ring-pause",
    ),
    path(
        "console/tables/<int:table_id>/resume/",
        console.ring_table_status,
        {"status": TableStatus.OPEN},
        name="ring-resume",
    ),
    path(
        "console/tournaments/<int:tournament_id>/",
        console.console_tournament,
        name="console-tournament",
    ),
    path(
        "console/tournaments/<int:tournament_id>/live/",
        console.console_live,
        name="console-live",
    ),
    *(
        path(
            f"console/tournaments/<int:tournament_id>/{action}/",
            console.tournament_action,
            {"action": action},
            name=f"console-{action}",
        )
        for action in console.TOURNAMENT_ACTIONS
    ),
    *(
        path(
            f"console/tournaments/<int:tournament_id>/clock/{control}/",
            console.clock_control,
            {"control": control},
            name=f"console-clock-{control}",
        )
        for control in console.CLOCK_CONTROLS
    ),
    path(
        "console/tournaments/<int:tournament_id>/moves/<int:move_id>/acknowledge/",
        console.move_acknowledge,
        name="console-ack",
    ),
    path(
        "console/tournaments/<int:tournament_id>/deal/",
        console.deal_record,
        name="console-deal",
    ),
    path(
        "console/tournaments/<int:tournament_id>/report/",
        console.live_report,
        name="console-report",
    ),
    path("leagues/seasons/<int:season_id>/", standings.season_page, name="season"),
    path("play/", play.lobby, name="lobby"),
    *waitlists.urlpatterns,
    *purchases.urlpatterns,
    *my_account.urlpatterns,
    *prints.urlpatterns,
    path("play/deck/", play.deck_colours, name="deck-colours"),
    path("play/tables/<int:table_id>/", play.table, name="table"),
    path("play/tables/<int:table_id>/live/", play.table_live, name="table-live"),
    path("play/tables/<int:table_id>/act/", play.table_act, name="table-act"),
    path("play/tables/<int:table_id>/sit/", play.table_sit, name="table-sit"),
    path(
        "play/tables/<int:table_id>/client-seed/",
        play.table_client_seed,
        name="table-client-seed",
    ),
    path("play/tables/<int:table_id>/leave/", play.table_leave, name="table-leave"),
    path(
        "play/tables/<int:table_id>/sit-out/",
        play.table_sit_out,
        {"sitting_out": True},
        name="table-sit-out",
    ),
    path(
        "play/tables/<int:table_id>/sit-in/",
        play.table_sit_out,
        {"sitting_out": False},
        name="table-sit-in",
    ),
    path(
        "play/tournaments/<int:tournament_id>/register/",
        play.tournament_register,
        {"register": True},
        name="tournament-register",
    ),
    path(
        "play/tournaments/<int:tournament_id>/unregister/",
        play.tournament_register,
        {"register": False},
        name="tournament-unregister",
    ),
    *desk.urlpatterns,
    *desk_players.urlpatterns,
    *desk_club.urlpatterns,
    *cashier.urlpatterns,
]
urlpatterns += desk_schedules.urlpatterns
urlpatterns += desk_tournaments.urlpatterns
urlpatterns += desk_ring.urlpatterns
urlpatterns += desk_leagues.urlpatterns
