"""Claude: the request runner (sync now, batches later) and the price table."""
