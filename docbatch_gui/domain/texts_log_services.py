"""The words of the services' log lines (``domain.said.say``): Claude requests and
caching, child processes, webhooks, settings and secrets, blobs, the registry's
readers, watched folders, locks and the command line.

code → {language: template}, as in ``texts_jobs``; every code has both languages and
the same placeholders in each (``tests/unit/test_messages.py``).
"""

from __future__ import annotations

LOG_SERVICE_TEXTS: dict[str, dict[str, str]] = {}
