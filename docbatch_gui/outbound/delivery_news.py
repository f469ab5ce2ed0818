"""Who hears that the webhook outbox changed: a delivery tried, given up or queued.

A window's list of deliveries goes stale the moment the background sender settles a
message (a refused connection moves it to the failed ones); its listener is told here
and reads the outbox again. Listeners are called in the sender's thread: one must be
quick and thread-safe (a Qt signal), and a failing one never stops a delivery.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

Listener = Callable[[], None]

_listeners: list[Listener] = []
_lock = threading.Lock()


def listen(listener: Listener) -> Callable[[], None]:
    """Call ``listener`` after every change of an outbox; returns what stops it."""
    with _lock:
        _listeners.append(listener)

    def stop() -> None:
        with _lock:
            if listener in _listeners:
                _listeners.remove(listener)

    return stop


def tell() -> None:
    """An outbox changed: tell every listener (a failing one is logged and skipped)."""
    with _lock:
        listeners = list(_listeners)
    for listener in listeners:
        try:
            listener()
        except Exception:  # a display problem must never stop a delivery
            log.error("webhook delivery listener failed", exc_info=True)
