"""The leagues' services: leagues and seasons, events and their results, standings, the
season pot. Each refusal is a ``games.errors.ServiceError`` (a 4xx; nothing changed)."""
