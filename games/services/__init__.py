"""Business logic of the tables side: each public function is one use case, run in one
transaction under the table lock (see games.locks)."""
