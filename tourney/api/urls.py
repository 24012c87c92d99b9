"""URLs of the tournaments API, included under /api/v1/tournaments/."""

from django.urls import path

from tourney.api import views

# The "id" converter is registered by games.api.urls (digits only, at most 18).
urlpatterns = [
    path("", views.TournamentListCreateApi.as_view(), name="tournaments"),
    path("schedules/", views.ScheduleCreateApi.as_view(), name="tournament-schedules"),
    path(
        "schedules/<id:schedule_id>/", views.ScheduleDetailApi.as_view(), name="tournament-schedule"
    ),
    path("<id:tournament_id>/", views.TournamentDetailApi.as_view(), name="tournament-detail"),
    path("<id:tournament_id>/start/", views.TournamentStartApi.as_view(), name="tournament-start"),
    path("<id:tournament_id>/pause/", views.TournamentPauseApi.as_view(), name="tournament-pause"),
    path(
        "<id:tournament_id>/resume/", views.TournamentResumeApi.as_view(), name="tournament-resume"
    ),
    path(
        "<id:tournament_id>/cancel/", views.TournamentCancelApi.as_view(), name="tournament-cancel"
    ),
    path(
        "<id:tournament_id>/register/",
        views.TournamentRegisterApi.as_view(),
        name="tournament-register",
    ),
    path(
        "<id:tournament_id>/unregister/",
        views.TournamentUnregisterApi.as_view(),
        name="tournament-unregister",
    ),
    path(
        "<id:tournament_id>/re-enter/",
        views.TournamentReEnterApi.as_view(),
        name="tournament-re-enter",
    ),
    path("<id:tournament_id>/rebuy/", views.TournamentRebuyApi.as_view(), name="tournament-rebuy"),
    path(
        "<id:tournament_id>/add-on/", views.TournamentAddOnApi.as_view(), name="tournament-add-on"
    ),
    path("<id:tournament_id>/moves/", views.TournamentMovesApi.as_view(), name="tournament-moves"),
    path(
        "<id:tournament_id>/moves/<id:move_id>/acknowledge/",
        views.TournamentMoveAcknowledgeApi.as_view(),
        name="tournament-move-acknowledge",
    ),
    path("<id:tournament_id>/busts/", views.TournamentBustsApi.as_view(), name="tournament-busts"),
    path("<id:tournament_id>/chips/", views.TournamentChipsApi.as_view(), name="tournament-chips"),
    path(
        "<id:tournament_id>/payouts/",
        views.TournamentPayoutsApi.as_view(),
        name="tournament-payouts",
    ),
    path(
        "<id:tournament_id>/deal-quote/",
        views.TournamentDealQuoteApi.as_view(),
        name="tournament-deal-quote",
    ),
    path("<id:tournament_id>/deal/", views.TournamentDealApi.as_view(), name="tournament-deal"),
    path(
        "<id:tournament_id>/events/", views.TournamentEventsApi.as_view(), name="tournament-events"
    ),
    path(
        "<id:tournament_id>/results/",
        views.TournamentResultsApi.as_view(),
        name="tournament-results",
    ),
]
