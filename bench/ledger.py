"""The ledger on PostgreSQL: transactions posted per second through ``money.ledger.post``
(each in its own database transaction with its row locks, as a buy-in or a cash-out is),
by one process and by several threads at once, and how long ``ledger_check`` takes over
1,000,000 postings. Each round at a table is a hand's life in money: a buy-in, the rake of
a pot to the house (every table's rake goes to the one house account) and a cash-out.

``python -m bench.ledger [--quick] [--database NAME]``; needs DATABASE_URL (a PostgreSQL
server: the bench creates and drops its own database, ``stud_bench_ledger`` unless
``--database`` names another). Prints a JSON report.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

from bench.stack import machine, scratch_database

BENCH_DATABASE = "stud_bench_ledger"
PLAYERS = 1000
TABLES = 50


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.ledger", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer transactions, 100k postings")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument(
        "--database", default=BENCH_DATABASE, help="the scratch database (created and dropped)"
    )
    parser.add_argument(
        "--transactions", type=int, default=4_000, help="posted one by one, per measurement"
    )
    return parser.parse_args(argv)


def post_rate(count: int, threads: int) -> dict[str, Any]:
    """Post ``count`` buy-ins, rakes and cash-outs between players, tables and the house,
    split among ``threads`` threads; transactions per second."""
    from django.db import connection

    from money.ledger import Ref, Transfer, house, player_account, post, table_chips
    from money.models import Reason

    def work(offset: int, n: int) -> None:
        try:
            for k in range(offset, offset + n):
                player, table = player_account(k % PLAYERS + 1), table_chips(k % TABLES + 1)
                post([Transfer(player, table, 10)], reason=Reason.BUY_IN, ref=Ref("table", k))
                post([Transfer(table, house(), 1)], reason=Reason.RAKE, ref=Ref("hand", k))
                post([Transfer(table, player, 9)], reason=Reason.CASH_OUT, ref=Ref("table", k))
        finally:
            connection.close()

    share = count // (3 * threads)
    started = time.perf_counter()
    workers = [threading.Thread(target=work, args=(t * share, share)) for t in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    seconds = time.perf_counter() - started
    posted = share * 3 * threads
    return {
        "threads": threads,
        "transactions": posted,
        "seconds": round(seconds, 2),
        "transactions_per_second": round(posted / seconds),
    }


def fill(postings: int) -> None:
    """Bring the ledger to ``postings`` postings with deposits written in bulk (two postings
    each), balances updated to match: what years of a club's cashier would leave."""
    from django.db import connection

    from money.ledger import account_get, cash_desk
    from money.models import Posting

    missing = max(postings - Posting.objects.count(), 0) // 2
    cash = account_get(cash_desk()).pk
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO money_transaction (reason, ref_kind, ref_id, memo, created_at) "
            "SELECT 'deposit', 'bench', g, '', now() FROM generate_series(1, %s) g",
            [missing],
        )
        cursor.execute(
            """
            WITH players AS (
                SELECT array_agg(id ORDER BY id) AS ids FROM money_account WHERE kind = 'player'
            ), deposits AS (
                SELECT t.id, t.ref_id FROM money_transaction t WHERE t.ref_kind = 'bench'
            )
            INSERT INTO money_posting (transaction_id, account_id, amount)
            SELECT d.id, %s, -(d.ref_id %% 100 + 1) FROM deposits d
            UNION ALL
            SELECT d.id, p.ids[1 + d.ref_id %% array_length(p.ids, 1)], d.ref_id %% 100 + 1
            FROM deposits d, players p
            """,
            [cash],
        )
        cursor.execute(
            "UPDATE money_account a SET balance = s.total FROM "
            "(SELECT account_id, sum(amount) AS total FROM money_posting GROUP BY account_id) s "
            "WHERE a.id = s.account_id"
        )
        cursor.execute("ANALYZE money_posting; ANALYZE money_transaction; ANALYZE money_account")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        print("bench.ledger needs DATABASE_URL=postgres://USER@HOST:PORT/DB", file=sys.stderr)
        return 2
    target = 100_000 if args.quick else 1_000_000
    count = 1_000 if args.quick else args.transactions
    with scratch_database(os.environ["DATABASE_URL"], args.database):
        import django

        django.setup()
        from money.cashier import bankroll
        from money.reconciliation import ledger_check

        for player_id in range(1, PLAYERS + 1):
            bankroll(player_id=player_id, amount=1_000, memo="bench")
        one = post_rate(count, 1)
        many = post_rate(count, args.threads)
        fill(target)
        report = ledger_check()
        if not report.ok:
            print("\n".join(report.problems[:10]), file=sys.stderr)
            return 1
    print(
        json.dumps(
            {
                "benchmark": "ledger",
                "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                "machine": machine(),
                "post": {"one_thread": one, "threads": many},
                "ledger_check": {
                    "postings": report.postings,
                    "transactions": report.transactions,
                    "accounts": report.accounts,
                    "seconds": round(report.seconds, 2),
                },
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
