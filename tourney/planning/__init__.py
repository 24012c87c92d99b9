"""Pure tournament planners: ante schedules, payouts, ICM and deals, table balancing.

Stdlib only and deterministic: no Django, no database, no clock, no randomness of their own
(a random draw takes an injected ``shuffle``-able RNG). The Django services call them and
store what they return.
"""
