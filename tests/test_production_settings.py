"""On the internet (issue 34, defect 11): `check --deploy` is clean with the production
environment deploy/README.md documents, HTTPS and Secure cookies need no flag once the site is
served beyond this machine, and a plain `pip install .` has what the Redis broker needs."""

from __future__ import annotations

import ast
import importlib.metadata
import json
import os
import re
import runpy
import secrets
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

from tests.test_settings import PROJECT_DIR, SERVICE_VARIABLES, settings_process

SECURITY_VARIABLES = SERVICE_VARIABLES | {
    "CSRF_TRUSTED_ORIGINS",
    "TRUSTED_PROXIES",
    "HTTPS",
    "HSTS_SECONDS",
    "HSTS_INCLUDE_SUBDOMAINS",
    "HSTS_PRELOAD",
}
SHOW_SECURITY = """
import json
from django.conf import settings
print(json.dumps({
    "HTTPS": settings.HTTPS,
    "SECURE_SSL_REDIRECT": settings.SECURE_SSL_REDIRECT,
    "SESSION_COOKIE_SECURE": settings.SESSION_COOKIE_SECURE,
    "CSRF_COOKIE_SECURE": settings.CSRF_COOKIE_SECURE,
    "SECURE_HSTS_SECONDS": settings.SECURE_HSTS_SECONDS,
    "SECURE_PROXY_SSL_HEADER": settings.SECURE_PROXY_SSL_HEADER,
    "TRUSTED_PROXIES": settings.TRUSTED_PROXIES,
}))
"""


def documented_production_environment() -> dict[str, str]:
    """The ``# production environment`` block of deploy/README.md, its placeholders filled."""
    readme = (PROJECT_DIR / "deploy" / "README.md").read_text()
    block = re.search(r"```sh\n# production environment\n(.*?)```", readme, flags=re.DOTALL)
    assert block, "deploy/README.md lost its production environment block"
    environment = dict(line.split("=", 1) for line in block.group(1).splitlines() if line)
    environment["SECRET_KEY"] = secrets.token_urlsafe(50)
    environment["DATABASE_URL"] = environment["DATABASE_URL"].replace("<password>", "secret")
    return environment


def _clean_environment(var_dir: Path, **environment: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in SECURITY_VARIABLES}
    return env | {"STUD_VAR_DIR": str(var_dir), **environment}


def security_settings(var_dir: Path, **environment: str) -> dict[str, Any]:
    env = _clean_environment(var_dir, **environment)
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + SHOW_SECURITY],
        cwd=PROJECT_DIR,
        env=env | {"DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    shown: dict[str, Any] = json.loads(result.stdout)
    return shown


def test_check_deploy_is_clean_with_the_documented_production_environment(
    tmp_path: Path,
) -> None:
    env = _clean_environment(tmp_path, **documented_production_environment())

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_served_beyond_this_machine_the_site_is_https_only_with_secure_cookies(
    tmp_path: Path,
) -> None:
    public = security_settings(tmp_path, ALLOWED_HOSTS="stud.example.org")
    local = security_settings(tmp_path)
    trial = security_settings(tmp_path, ALLOWED_HOSTS="stud.example.org", HTTPS="0")

    assert public["HTTPS"] and public["SECURE_SSL_REDIRECT"]
    assert public["SESSION_COOKIE_SECURE"] and public["CSRF_COOKIE_SECURE"]
    assert public["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600
    assert not local["SESSION_COOKIE_SECURE"] and not local["SECURE_SSL_REDIRECT"]
    assert not trial["SESSION_COOKIE_SECURE"] and not trial["SECURE_SSL_REDIRECT"]


def test_the_proxy_ssl_header_is_read_only_when_proxies_are_named(tmp_path: Path) -> None:
    alone = security_settings(tmp_path)
    proxied = security_settings(tmp_path, TRUSTED_PROXIES="10.0.0.2,10.1.0.0/16")

    assert alone["SECURE_PROXY_SSL_HEADER"] is None
    assert proxied["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert proxied["TRUSTED_PROXIES"] == ["10.0.0.2", "10.1.0.0/16"]


def test_a_trusted_proxy_that_is_no_address_is_refused(tmp_path: Path) -> None:
    result = settings_process(tmp_path, TRUSTED_PROXIES="10.0.0.2,proxy.example")

    assert result.returncode == 1
    assert "TRUSTED_PROXIES=" in result.stderr and "proxy.example" in result.stderr


def test_gunicorn_trusts_forwarded_headers_only_from_the_named_proxies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    conf = PROJECT_DIR / "deploy" / "gunicorn.conf.py"
    monkeypatch.delenv("TRUSTED_PROXIES", raising=False)
    alone = runpy.run_path(str(conf))
    monkeypatch.setenv("TRUSTED_PROXIES", "10.0.0.2")
    proxied = runpy.run_path(str(conf))

    assert alone["forwarded_allow_ips"] == ""  # gunicorn's own default trusts the loopback
    assert proxied["forwarded_allow_ips"] == "10.0.0.2"


# --- the runtime dependencies ----------------------------------------------------------------


def _runtime_closure() -> set[str]:
    """The distributions ``pip install .`` brings: pyproject's dependencies and theirs, with
    no extra (as installed here; names normalised)."""

    def norm(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    pyproject = tomllib.loads((PROJECT_DIR / "pyproject.toml").read_text())
    todo = [Requirement(text) for text in pyproject["project"]["dependencies"]]
    seen: set[str] = set()
    while todo:
        requirement = todo.pop()
        name = norm(requirement.name)
        extras = requirement.extras
        key = name + "".join(sorted(extras))
        if key in seen:
            continue
        seen.add(key)
        seen.add(name)
        for text in importlib.metadata.requires(requirement.name) or []:
            needed = Requirement(text)
            marker = needed.marker
            if marker is None or any(
                marker.evaluate({"extra": extra}) for extra in (extras or {""})
            ):
                todo.append(needed)
    return seen


def test_a_plain_install_has_every_module_the_redis_broker_imports() -> None:
    """kombu's Redis transport imports ``packaging``, which only kombu's ``redis`` extra
    brings (pinned to one version): without it ``migrate`` failed with REDIS_URL set."""
    import kombu.transport.redis as transport

    tree = ast.parse(Path(transport.__file__).read_text())
    top_level = {
        (node.module if isinstance(node, ast.ImportFrom) else alias.name).split(".")[0]
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom) and getattr(node, "level", 0) == 0
        for alias in node.names
    }
    distributions = importlib.metadata.packages_distributions()
    needed = {
        re.sub(r"[-_.]+", "-", distributions[module][0]).lower()
        for module in top_level
        if module in distributions and module not in sys.stdlib_module_names
    }

    assert needed, top_level
    assert needed - _runtime_closure() == set()
