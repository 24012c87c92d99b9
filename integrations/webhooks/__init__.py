"""Webhooks: subscriptions, the outbox written in the caller's transaction, signed delivery
in order per subscription with retries (see docs/walkthroughs/money.md)."""
