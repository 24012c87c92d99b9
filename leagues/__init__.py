"""Club leagues: leagues and seasons, points formulas, events from the service's own
tournaments or entered by hand, standings, the season pot and the finale."""
