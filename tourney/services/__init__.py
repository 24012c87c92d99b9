"""Tournament services: the imperative shell around the pure planners in tourney.planning.

Three layers, each importing only those below it (an import-linter contract in
pyproject.toml):

- ``commands``: what staff, players and the beat ask for (start, pause, resume, register,
  re-enter, rebuy, deals, the director's toolkit, live reports); each locks the tournament,
  changes it and runs the update pass.
- ``update``: the update pass (``tournament_refresh``), after every hand and every tick.
- ``steps``: what the update pass and the commands are made of (clock, seating,
  eliminations, balancing, places, payments, locks, the event log).

Every service runs in one transaction and takes its locks in one order: the tournament row,
then its tables by id (``tourney.services.steps.locks``), then games' hand and seat rows.
"""
