"""``docbatch doctor``'s webhook check: what only a connection can tell about
WEBHOOK_URL (its form is checked when the settings are read): does anything answer
at its host and port, and for https, does its certificate hold.

A dead address used to show only as one failed delivery per finished job; the doctor
says it before the first one.
"""

from __future__ import annotations

import socket
import ssl
from urllib.parse import urlsplit

from docbatch_gui.diagnostics.findings import Phrase, phrase
from docbatch_gui.i18n import N_
from docbatch_gui.settings.model import Settings

#: seconds for the connection and the TLS handshake
TIMEOUT = 5.0


def webhook_reachable(settings: Settings) -> tuple[bool, Phrase] | None:
    """(answers, one sentence), or None without a webhook."""
    if not settings.webhook_url:
        return None
    parts = urlsplit(settings.webhook_url)
    host = parts.hostname or ""
    secure = parts.scheme.lower() == "https"
    port = parts.port or (443 if secure else 80)
    where = f"{host}:{port}"
    try:
        with socket.create_connection(
            (host, port), timeout=min(TIMEOUT, settings.webhook_timeout)
        ) as raw:
            if secure:
                context = ssl.create_default_context()
                with context.wrap_socket(raw, server_hostname=host):
                    pass
    except ssl.SSLError as exc:
        refused = N_(
            "{where} answers, but its TLS certificate is refused ({reason}): deliveries will "
            "fail; fix the server's certificate or check WEBHOOK_URL"
        )
        return False, phrase(refused, where=where, reason=str(exc.reason or exc))
    except OSError as exc:
        silent = N_(
            "nothing answers at {where} ({reason}): every delivery will fail and wait in the "
            "outbox (`docbatch webhooks`); check WEBHOOK_URL and that the receiver runs"
        )
        return False, phrase(silent, where=where, reason=exc.strerror or type(exc).__name__)
    answers = N_("{where} answers; each finished job is posted to {url}")
    return True, phrase(answers, where=where, url=settings.webhook_url)
