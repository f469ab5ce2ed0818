"""Data classes, the job state machine and the error kinds. No I/O lives here."""
