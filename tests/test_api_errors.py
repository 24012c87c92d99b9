"""Every error, API or not, answers {"error": {"code", "message", "detail"}}; bad input is 4xx."""

from enum import StrEnum

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.test import Client
from django.urls import include, path
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import web.codes
from config.error_codes import ERROR_CODES, member_docs

pytestmark = [pytest.mark.urls(__name__), pytest.mark.django_db]


class StakeSerializer(serializers.Serializer[dict[str, int]]):
    chips = serializers.IntegerField(min_value=1)


class StakeApi(APIView):
    permission_classes = [AllowAny]

    def post(self, request: Request) -> Response:
        serializer = StakeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(serializer.validated_data)


class PrivateApi(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        return Response({})


class RaisingApi(APIView):
    """Raises the Django exception named in the URL, as a service might."""

    permission_classes = [AllowAny]
    errors = {
        "http404": Http404("no such table"),
        "denied": DjangoPermissionDenied(),
        "invalid": DjangoValidationError({"seat": ["Seat 9 does not exist."]}),
    }

    def get(self, request: Request, kind: str) -> Response:
        raise self.errors[kind]


def broken_page(request: object) -> None:
    raise RuntimeError("a bug")


urlpatterns = [
    path("api/stake/", StakeApi.as_view()),
    path("api/private/", PrivateApi.as_view()),
    path("api/raise/<str:kind>/", RaisingApi.as_view()),
    path("broken/", broken_page),
    path("", include("config.urls")),
]
handler404 = "config.api_errors.not_found_handler"
handler500 = "config.api_errors.server_error_handler"


def test_invalid_input_is_a_400_with_the_field_errors(client: Client) -> None:
    response = client.post("/api/stake/", {"chips": 0}, content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {
        "error": {
            "code": "invalid",
            "message": "The request is not valid.",
            "detail": {"chips": ["Ensure this value is greater than or equal to 1."]},
        }
    }


def test_malformed_json_is_a_400(client: Client) -> None:
    response = client.post("/api/stake/", "{chips:", content_type="application/json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "parse_error"
    assert response.json()["error"]["message"].startswith("JSON parse error")


def test_a_wrong_method_is_a_405(client: Client) -> None:
    response = client.delete("/api/stake/")

    assert response.status_code == 405
    assert response.json() == {
        "error": {
            "code": "method_not_allowed",
            "message": 'Method "DELETE" not allowed.',
            "detail": None,
        }
    }


def test_a_missing_login_is_a_401(client: Client) -> None:
    response = client.get("/api/private/")

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize(
    ("kind", "status", "code"),
    [
        ("http404", 404, "not_found"),
        ("denied", 403, "permission_denied"),
        ("invalid", 400, "invalid"),
    ],
)
def test_django_exceptions_in_api_views_keep_the_format(
    client: Client, kind: str, status: int, code: str
) -> None:
    response = client.get(f"/api/raise/{kind}/")

    assert response.status_code == status
    assert response.json()["error"]["code"] == code


def test_a_django_validation_error_keeps_its_field_messages(client: Client) -> None:
    response = client.get("/api/raise/invalid/")

    assert response.json()["error"]["detail"] == {"seat": ["Seat 9 does not exist."]}


def test_an_unknown_url_is_a_json_404(client: Client) -> None:
    response = client.get("/no/such/page")

    assert response.status_code == 404
    assert response.json() == {
        "error": {
            "code": "not_found",
            "message": "No such URL.",
            "detail": {"path": "/no/such/page", "api_root": "/api/v1/"},
        }
    }


def test_a_browser_asking_for_an_unknown_page_gets_a_page_leading_back(client: Client) -> None:
    response = client.get("/play/no-such-page/", HTTP_ACCEPT="text/html,application/xhtml+xml")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "There is no page at /play/no-such-page/" in page and 'href="/play/"' in page
    api = client.get("/api/v1/no-such/", HTTP_ACCEPT="text/html")
    assert api.json()["error"]["code"] == "not_found"


def test_a_bug_is_a_json_500() -> None:
    client = Client(raise_request_exception=False)

    response = client.get("/broken/")

    assert response.status_code == 500
    assert response.json() == {
        "error": {"code": "server_error", "message": "Internal server error.", "detail": None}
    }


def test_the_api_root_lists_schema_docs_and_health(client: Client) -> None:
    response = client.get("/api/v1/")

    links = response.json()
    assert response.status_code == 200
    assert links["schema"] == "http://testserver/api/schema/"
    assert links["docs"] == "http://testserver/api/docs/"
    assert links["health"] == "http://testserver/healthz"


def test_the_schema_and_the_docs_page_are_served(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    docs = client.get("/api/docs/")

    assert schema.status_code == 200
    assert schema.json()["info"]["title"] == "Seven Card Stud API"
    assert docs.status_code == 200
    assert b"drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in docs.content


def test_the_error_schema_names_every_code_as_one_enum(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    components = schema["components"]["schemas"]
    code = components["ErrorBody"]["properties"]["code"]
    enum = components["ErrorCode"]
    assert code["allOf"] == [{"$ref": "#/components/schemas/ErrorCode"}]
    assert enum["enum"] == sorted({c.value for codes in ERROR_CODES for c in codes})
    assert {"stale_seq", "no_league", "already_member", "insufficient_funds"} <= set(enum["enum"])
    assert "* `stale_seq` - games: The decision was made on an old view" in enum["description"]


def test_every_code_drf_answers_with_is_in_the_enum() -> None:
    listed = {c.value for codes in ERROR_CODES for c in codes}
    drf_codes = {
        cls.default_code
        for cls in vars(exceptions).values()
        if isinstance(cls, type) and issubclass(cls, exceptions.APIException)
    }

    assert drf_codes - listed == set()


@pytest.mark.parametrize("codes", [*ERROR_CODES, web.codes.Code], ids=lambda c: c.__module__)
def test_every_code_says_what_it_means(codes: type[StrEnum]) -> None:
    docs = member_docs(codes)

    assert set(docs) == {c.value for c in codes}
    assert all(doc.strip() for doc in docs.values())
