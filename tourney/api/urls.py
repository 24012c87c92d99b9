"""URLs of the tournaments API, included under /api/v1/tournaments/."""

from django.urls import path

from tourney.api import director_views, views

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
    # the director's toolkit (tourney.api.director_views)
    path(
        "<id:tournament_id>/clock/",
        director_views.TournamentClockApi.as_view(),
        name="tournament-clock",
    ),
    path(
        "<id:tournament_id>/seats/move/",
        director_views.SeatMoveApi.as_view(),
        name="tournament-seat-move",
    ),
    path(
        "<id:tournament_id>/seats/swap/",
        director_views.SeatSwapApi.as_view(),
        name="tournament-seat-swap",
    ),
    path(
        "<id:tournament_id>/seats/lock/",
        director_views.SeatLockApi.as_view(),
        name="tournament-seat-lock",
    ),
    path(
        "<id:tournament_id>/seats/late-entry/",
        director_views.LateEntryApi.as_view(),
        name="tournament-late-entry",
    ),
    path(
        "<id:tournament_id>/busts/<id:entry_id>/undo/",
        director_views.BustUndoApi.as_view(),
        name="tournament-bust-undo",
    ),
    path(
        "<id:tournament_id>/busts/<id:entry_id>/disqualify/",
        director_views.DisqualifyApi.as_view(),
        name="tournament-disqualify",
    ),
    path(
        "<id:tournament_id>/chips/correct/",
        director_views.ChipCorrectionApi.as_view(),
        name="tournament-chips-correct",
    ),
    path(
        "<id:tournament_id>/late-registration/",
        director_views.LateRegistrationApi.as_view(),
        name="tournament-late-registration",
    ),
    path(
        "<id:tournament_id>/settings/",
        director_views.SettingsApi.as_view(),
        name="tournament-settings",
    ),
    path(
        "<id:tournament_id>/tables/",
        director_views.TablesApi.as_view(),
        name="tournament-tables",
    ),
    path(
        "<id:tournament_id>/leaderboard/",
        director_views.LeaderboardApi.as_view(),
        name="tournament-leaderboard",
    ),
]
