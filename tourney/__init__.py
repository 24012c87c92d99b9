"""The tournament side: schedules, registration, seating, the level clock, balancing, results."""
