"""Celery: the same engine and registry calls as tasks on any machine; no logic of its own."""
