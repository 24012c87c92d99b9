"""``python manage.py ledger_check``: prove that the ledger balances and matches the chips
in play; exits 1 on any difference (CI runs it after the tests)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from money.reconciliation import ledger_check


class Command(BaseCommand):
    help = "Check that the ledger balances and matches the chips in play; exit 1 if not."

    def handle(self, *args: Any, **options: Any) -> None:
        report = ledger_check()
        summary = (
            f"{report.transactions} transactions, {report.postings} postings, "
            f"{report.accounts} accounts, {report.claims} claims checked "
            f"in {report.seconds:.2f} s"
        )
        if not report.ok:
            for problem in report.problems:
                self.stderr.write(problem)
            raise CommandError(f"ledger_check: {len(report.problems)} differences ({summary})")
        self.stdout.write(f"ledger_check: balanced and matching ({summary})")
