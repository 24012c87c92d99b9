"""GET /api/v1/: the entry point of the API, listing where to go next."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

# URL names listed by the API root; apps add theirs here when they add endpoints.
API_V1_ENDPOINTS = {
    "schema": "api-schema",
    "docs": "api-docs",
    "health": "healthz",
    "token": "auth-token",
    "token_revoke": "auth-token-revoke",
    "token_rotate": "auth-token-rotate",
    "players": "players",
    "me": "players-me",
    "tables": "tables",
    "games": "games",
    "waitlist": "waitlist",
    "tournaments": "tournaments",
    "clubs": "clubs",
    "leagues": "leagues",
    "points_preview": "points-preview",
}


class ApiRootView(APIView):
    """Links to the API's endpoints, its OpenAPI schema and its interactive docs."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, auth=[])
    def get(self, request: Request) -> Response:
        links = {name: reverse(url, request=request) for name, url in API_V1_ENDPOINTS.items()}
        return Response(links)
