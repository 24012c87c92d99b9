"""The ledger: accounts, immutable double-entry transactions in integer units, the cashier
and the reconciliation of the ledger with the chips in play.

Money sits below games and tourney: it refers to their rows (a player, a table, a
tournament, a season) by kind and id, never by foreign key, and learns about chips in play
through providers those apps register (``money.reconciliation``).
"""
