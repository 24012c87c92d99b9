"""URLs of the clubs API, included under /api/v1/clubs/ (the ``id`` converter is
registered by games.api.urls, which the project includes first)."""

from django.urls import path

from clubs.api import views

urlpatterns = [
    path("", views.ClubListCreateApi.as_view(), name="clubs"),
    path("<id:club_id>/", views.ClubDetailApi.as_view(), name="club-detail"),
    path("<id:club_id>/members/", views.ClubMembersApi.as_view(), name="club-members"),
    path(
        "<id:club_id>/members/<id:member_id>/",
        views.ClubMemberApi.as_view(),
        name="club-member",
    ),
]
