"""The tables and the games lists are pages like every list that grows
(api_conventions.pagination): ``count``, ``next``, ``previous``, ``results``."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from tests.games.factories import make_player, make_table
from tests.games.floor import make_game
from tests.games.test_api_support import client_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("url", "make"), [("/api/v1/tables/", make_table), ("/api/v1/games/", make_game)]
)
def test_the_list_is_paginated(url, make) -> None:
    ids = [make().id for _ in range(3)]
    client = client_for(make_player())

    first = client.get(url, {"page_size": 2}).json()
    second = client.get(first["next"]).json()

    assert first["count"] == second["count"] == 3
    assert first["previous"] is None and second["next"] is None
    assert [row["id"] for row in first["results"] + second["results"]] == ids


@pytest.mark.parametrize("path", ["/api/v1/tables/", "/api/v1/games/"])
def test_the_schema_documents_the_list_as_a_page(path) -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    answer = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    name = answer["schema"]["$ref"].rpartition("/")[2]

    assert set(schema["components"]["schemas"][name]["properties"]) == {
        "count",
        "next",
        "previous",
        "results",
    }
