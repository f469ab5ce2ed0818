"""The words of the engine's and the host's log lines (``domain.said.say``): jobs
rendered, read, escalated and recovered, batches sent and collected, the budget, the
engine's state.

code → {language: template}, as in ``texts_jobs``; every code has both languages and
the same placeholders in each (``tests/unit/test_messages.py``).
"""

from __future__ import annotations

LOG_ENGINE_TEXTS: dict[str, dict[str, str]] = {}
