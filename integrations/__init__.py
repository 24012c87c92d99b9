"""Talking with the outside world: idempotent requests (``Idempotency-Key``) and signed
webhooks delivered from a transactional outbox."""
