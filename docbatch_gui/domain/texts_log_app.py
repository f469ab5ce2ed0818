"""The words of the application's and the window's own log lines (``domain.said.say``):
the engine's state, watched folders, the queue as the host reads it, the window's
start and its dialogs.

code → {language: template}, as in ``texts_jobs``; every code has both languages and
the same placeholders in each (``tests/unit/test_messages.py``).
"""

from __future__ import annotations

LOG_APP_TEXTS: dict[str, dict[str, str]] = {}
