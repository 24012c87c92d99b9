"""Every operation of the OpenAPI schema, called by each of the six roles against club A's
objects, answers as ``tests/api/permissions_table.py`` says: the table has a row for every
operation (a new endpoint without one fails here), and each cell is checked.

One world per operation (``tests/api/world.py``); each role's call runs in a savepoint rolled
back after it, so every role meets the same world (a staff ``DELETE`` does not hide the
subscription from the next caller).
"""

from __future__ import annotations

import os

import pytest
from django.db import transaction
from drf_spectacular.generators import SchemaGenerator

from tests.api.permissions_table import BODIES, QUERIES, TABLE
from tests.api.world import ROLES, make_world, path_for

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")


def schema_operations() -> set[str]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        f"{method.upper()} {path}"
        for path, item in schema["paths"].items()
        for method in item
        if method in METHODS
    }


def outcome(status: int) -> str:
    """The table's word for an answer: refused (401, 403, 404), else ``ok`` (every access
    check passed; the input or the state may still refuse it with a 400 or a 409)."""
    assert status < 500, f"a server error: {status}"
    return str(status) if status in (401, 403, 404) else "ok"


def call(world, role: str, operation: str) -> int:
    method, template = operation.split(" ", 1)
    path = path_for(world, template)
    body = BODIES.get(operation, lambda w: {})(world)
    query = QUERIES.get(operation, lambda w: "")(world)
    client = world.client(role)
    url = f"{path}?{query}" if query else path
    with transaction.atomic():
        response = getattr(client, method.lower())(url, body, format="json")
        transaction.set_rollback(True)
    return response.status_code


def test_the_table_has_a_row_for_every_operation_of_the_schema_and_no_other():
    operations = schema_operations()
    assert sorted(operations - set(TABLE)) == [], "operations without a row"
    assert sorted(set(TABLE) - operations) == [], "rows of no operation"
    assert all(len(row) == len(ROLES) for row in TABLE.values())


@pytest.mark.parametrize("operation", sorted(TABLE))
def test_each_role_gets_the_tables_answer(operation):
    world = make_world()
    answers = {role: outcome(call(world, role, operation)) for role in ROLES}
    expected = dict(zip(ROLES, TABLE[operation], strict=True))
    if os.environ.get("STUD_PERMISSIONS_PRINT"):  # to write a new row: the answers as a row
        print(f'ROW "{operation}": {tuple(answers.values())!r},')
    assert answers == expected
