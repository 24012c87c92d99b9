"""Clubs and their members: the tenancy boundary of the service.

Every club-owned row (tournament, league, season, account) carries its club; reads and
changes are scoped by club in the query itself (``clubs.access``), so a forgotten check
fails closed.
"""
