"""Commands: each locks its tournament, changes it and runs the update pass
(``tourney.services.update``)."""
