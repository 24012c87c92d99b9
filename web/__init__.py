"""The web pages: the clock screen, the director's console, the player's lobby and table.

Pages are another client of the services: every view calls the same services and selectors
as the API (and the engine's view builder, through ``games.selectors``, for what a player
may see); nothing here decides a rule.
"""
