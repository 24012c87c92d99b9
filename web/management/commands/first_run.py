"""``manage.py first_run``: while no staff account exists, print the one-time link of the
page that makes the first one (``make run`` runs it after migrating)."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand

from web.first_run import token_issue


class Command(BaseCommand):
    help = "Print the one-time link that creates the first staff account (none exists yet)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--base-url",
            default=f"http://127.0.0.1:{os.environ.get('PORT', '8000')}",
            help="where the pages are served (default http://127.0.0.1:$PORT)",
        )

    def handle(self, *args: Any, base_url: str, **options: Any) -> None:
        token = token_issue()
        if token is None:
            self.stdout.write("A staff account exists: sign in at /accounts/login/.")
            return
        self.stdout.write(
            "No staff account yet. Make the first one (this link works once, and only until "
            f"a staff account exists):\n\n    {base_url.rstrip('/')}/setup/?token={token}\n"
        )
