"""Celery: the same engine and registry calls as tasks on any machine; no logic of its own."""

from docbatch_gui.extras import require

# every module here imports Celery at the top: one clear sentence instead of a traceback
require("team", "celery", "Celery execution (EXECUTION=celery, docbatch celery-worker)")
