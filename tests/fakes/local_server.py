"""Start and stop a fake HTTP server on 127.0.0.1, shared by the fakes.

``stop`` closes the listening socket and every open connection: to a client that
keeps connections alive (both SDKs do), that is what a network cut looks like.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class LocalServer:
    """Mixin: the class provides ``_make_server``, ``_lock`` and ``_connections``."""

    thread_name = "fake-server"
    url: str = ""
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _lock: threading.RLock
    _connections: set[socket.socket]

    def _make_server(self) -> ThreadingHTTPServer:
        raise NotImplementedError

    def start(self) -> Self:
        self._server = self._make_server()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), name=self.thread_name, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        with self._lock:
            connections = list(self._connections)
        for conn in connections:
            with contextlib.suppress(OSError):  # already closed by the client
                conn.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class TrackingHandler(BaseHTTPRequestHandler):
    """Base handler: HTTP/1.1 keep-alive as the SDKs expect, quiet, and every open
    connection known to the fake (``server.fake._track``) so ``stop`` can cut it."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are two writes: avoid a 40 ms stall
    server: Any

    def setup(self) -> None:
        super().setup()
        self.server.fake._track(self.connection, add=True)

    def finish(self) -> None:
        self.server.fake._track(self.connection, add=False)
        super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests and benchmarks read the recorded requests instead."""
