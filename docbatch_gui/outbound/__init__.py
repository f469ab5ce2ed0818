"""Documents out of DocBatch: exports (xlsx, csv, json, saved layouts) and webhooks."""
