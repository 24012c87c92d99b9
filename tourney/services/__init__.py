"""Tournament services: the imperative shell around the pure planners in tourney.planning.

Every service runs in one transaction and takes its locks in one order: the tournament row,
then its tables by id (``tourney.services.locks``), then games' hand and seat rows.
"""
