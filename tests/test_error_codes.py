"""Every refusal names a code its app's ``codes.Code`` has: a missing member would turn the
refusal into a 500 (an AttributeError when raised), an engine code unknown to games too."""

import ast
import importlib
import re
from pathlib import Path

import pytest

import games.engine
from games.codes import Code

ROOT = Path(__file__).resolve().parent.parent
APPS = ["config", "clubs", "games", "integrations", "leagues", "money", "tourney", "web"]


@pytest.mark.parametrize("app", APPS)
def test_every_code_an_app_names_is_a_member_of_its_enum(app: str) -> None:
    codes = importlib.import_module(f"{app}.codes").Code
    named = {
        name
        for path in (ROOT / app).rglob("*.py")
        for name in re.findall(r"\bCode\.([A-Z_0-9]+)\b", path.read_text())
    }

    assert named
    assert named - set(codes.__members__) == set()


def test_every_refusal_of_the_engine_has_a_games_code() -> None:
    # hand_act passes the engine's IllegalAction code on as Code(error.code).
    engine = Path(games.engine.__file__).parent
    refusals = set()
    for path in engine.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction":
                code = node.args[1] if len(node.args) > 1 else None
                code = next((k.value for k in node.keywords if k.arg == "code"), code)
                refusals.add(ast.literal_eval(code) if code else "illegal_action")

    assert len(refusals) > 10
    assert refusals - {c.value for c in Code} == set()
