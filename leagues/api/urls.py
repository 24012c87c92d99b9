"""URLs of the leagues API, included under /api/v1/ (the ``id`` converter is registered
by games.api.urls)."""

from django.urls import path

from leagues.api import views

urlpatterns = [
    path("leagues/", views.LeagueListCreateApi.as_view(), name="leagues"),
    path("leagues/<id:league_id>/", views.LeagueDetailApi.as_view(), name="league-detail"),
    path(
        "leagues/<id:league_id>/seasons/", views.LeagueSeasonsApi.as_view(), name="league-seasons"
    ),
    path("seasons/<id:season_id>/", views.SeasonDetailApi.as_view(), name="season-detail"),
    path("seasons/<id:season_id>/close/", views.SeasonCloseApi.as_view(), name="season-close"),
    path(
        "seasons/<id:season_id>/pot/transactions/",
        views.SeasonPotTransactionsApi.as_view(),
        name="season-pot-transactions",
    ),
    path("seasons/<id:season_id>/events/", views.SeasonEventsApi.as_view(), name="season-events"),
    path(
        "seasons/<id:season_id>/standings/",
        views.SeasonStandingsApi.as_view(),
        name="season-standings",
    ),
    path("seasons/<id:season_id>/finale/", views.SeasonFinaleApi.as_view(), name="season-finale"),
    path("season-events/<id:event_id>/", views.EventDetailApi.as_view(), name="season-event"),
    path(
        "season-events/<id:event_id>/results/",
        views.EventResultsApi.as_view(),
        name="season-event-results",
    ),
    path(
        "season-events/<id:event_id>/refresh/",
        views.EventRefreshApi.as_view(),
        name="season-event-refresh",
    ),
    path(
        "players/<id:player_id>/seasons/",
        views.PlayerSeasonsApi.as_view(),
        name="player-seasons",
    ),
    path("points-preview/", views.PointsPreviewApi.as_view(), name="points-preview"),
]
